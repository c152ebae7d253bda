"""A backend's whole Advanced Commerce API round trip against `storekeeper serve`, through
Apple's App Store Server Library.

Usage: commerce_client.py BASE_URL KEY.p8 ROOT.der CONTROL_TOKEN OFFER_KEY.pem KEY_ID
Signs in-app requests with AdvancedCommerceAPIInAppSignatureCreator (the configuration's offer
key), has the app buy them through the control endpoint (a subscription of items, a one-time
charge, a modification, a reactivation), calls the six server endpoints with Apple's request
models and bearer token, verifies every signed answer with SignedDataVerifier (its
advancedCommerceInfo decoded), lets the clock renew, and records Apple's errors. Prints one JSON
object of what it saw.
"""
import json
import sys
import urllib.error
import urllib.request
import uuid

from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient
from appstoreserverlibrary.jws_signature_creator import AdvancedCommerceAPIInAppSignatureCreator
from appstoreserverlibrary.models.AdvancedCommerceDescriptors import AdvancedCommerceDescriptors
from appstoreserverlibrary.models.AdvancedCommerceEffective import AdvancedCommerceEffective
from appstoreserverlibrary.models.AdvancedCommerceOffer import AdvancedCommerceOffer
from appstoreserverlibrary.models.AdvancedCommerceOfferPeriod import AdvancedCommerceOfferPeriod
from appstoreserverlibrary.models.AdvancedCommerceOfferReason import AdvancedCommerceOfferReason
from appstoreserverlibrary.models.AdvancedCommerceOneTimeChargeCreateRequest import (
    AdvancedCommerceOneTimeChargeCreateRequest)
from appstoreserverlibrary.models.AdvancedCommerceOneTimeChargeItem import (
    AdvancedCommerceOneTimeChargeItem)
from appstoreserverlibrary.models.AdvancedCommercePeriod import AdvancedCommercePeriod
from appstoreserverlibrary.models.AdvancedCommerceRefundReason import AdvancedCommerceRefundReason
from appstoreserverlibrary.models.AdvancedCommerceRefundType import AdvancedCommerceRefundType
from appstoreserverlibrary.models.AdvancedCommerceRequestInfo import AdvancedCommerceRequestInfo
from appstoreserverlibrary.models.AdvancedCommerceRequestRefundItem import (
    AdvancedCommerceRequestRefundItem)
from appstoreserverlibrary.models.AdvancedCommerceRequestRefundRequest import (
    AdvancedCommerceRequestRefundRequest)
from appstoreserverlibrary.models.AdvancedCommerceRequestRefundResponse import (
    AdvancedCommerceRequestRefundResponse)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionCancelRequest import (
    AdvancedCommerceSubscriptionCancelRequest)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionCancelResponse import (
    AdvancedCommerceSubscriptionCancelResponse)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionChangeMetadataDescriptors import (
    AdvancedCommerceSubscriptionChangeMetadataDescriptors)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionChangeMetadataRequest import (
    AdvancedCommerceSubscriptionChangeMetadataRequest)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionChangeMetadataResponse import (
    AdvancedCommerceSubscriptionChangeMetadataResponse)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionCreateItem import (
    AdvancedCommerceSubscriptionCreateItem)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionCreateRequest import (
    AdvancedCommerceSubscriptionCreateRequest)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionMigrateDescriptors import (
    AdvancedCommerceSubscriptionMigrateDescriptors)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionMigrateItem import (
    AdvancedCommerceSubscriptionMigrateItem)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionMigrateRequest import (
    AdvancedCommerceSubscriptionMigrateRequest)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionMigrateResponse import (
    AdvancedCommerceSubscriptionMigrateResponse)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionModifyAddItem import (
    AdvancedCommerceSubscriptionModifyAddItem)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionModifyInAppRequest import (
    AdvancedCommerceSubscriptionModifyInAppRequest)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionPriceChangeItem import (
    AdvancedCommerceSubscriptionPriceChangeItem)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionPriceChangeRequest import (
    AdvancedCommerceSubscriptionPriceChangeRequest)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionPriceChangeResponse import (
    AdvancedCommerceSubscriptionPriceChangeResponse)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionReactivateInAppRequest import (
    AdvancedCommerceSubscriptionReactivateInAppRequest)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionRevokeRequest import (
    AdvancedCommerceSubscriptionRevokeRequest)
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionRevokeResponse import (
    AdvancedCommerceSubscriptionRevokeResponse)
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

BUNDLE = "com.example.storekeeper"
BASE, KEY, ROOT, TOKEN, OFFER_KEY, OFFER_KEY_ID = sys.argv[1:7]
client = AppStoreServerAPIClient(open(KEY, "rb").read(), "KEY_ID", "ISSUER_ID", BUNDLE,
                                 Environment.SANDBOX)
client._base_url = BASE
verifier = SignedDataVerifier([open(ROOT, "rb").read()], False, Environment.SANDBOX, BUNDLE, 1)
signer = AdvancedCommerceAPIInAppSignatureCreator(
    open(OFFER_KEY, "rb").read(), OFFER_KEY_ID, "ISSUER_ID", BUNDLE)
NEWS, BOOKS = "com.example.news", "com.example.books"
seen = {"errors": {}, "controlErrors": []}


def info(token=None):
    return AdvancedCommerceRequestInfo(requestReferenceId=uuid.uuid4(), consistencyToken=token)


def control(lines):
    request = urllib.request.Request(
        BASE + "/storekeeper/v1/commands", data="\n".join(lines).encode(), method="POST",
        headers={"Authorization": "Bearer " + TOKEN})
    try:
        with urllib.request.urlopen(request) as response:
            text = response.read().decode()
    except urllib.error.HTTPError as refused:
        text = refused.read().decode()
    events = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    seen["controlErrors"].extend(e.get("message") for e in events if e.get("event") == "error")
    return events


def buy(product, request):
    events = control(["buy %s advanced-commerce=%s" % (product, signer.create_signature(request))])
    results = [e for e in events if e.get("event") == "purchaseResult"]
    return results[-1].get("transactionID") if results else None


def call(path, transaction_id, body, response_class):
    return client._make_request(
        "/advancedCommerce/v1/%s/%s" % (path, transaction_id), "POST", {}, body, response_class)


def decoded(answer):
    """The transaction and renewal info of an answer, verified; their advancedCommerceInfo."""
    out = {}
    if answer.signedTransactionInfo:
        t = verifier.verify_and_decode_signed_transaction(answer.signedTransactionInfo)
        aca = t.advancedCommerceInfo
        out["transaction"] = {
            "id": t.transactionId, "price": t.price, "revoked": t.revocationDate is not None,
            "items": [[i.SKU, i.price, i.revocationDate is not None,
                       [r.refundAmount for r in (i.refunds or [])]] for i in aca.items],
            "displayName": aca.descriptors.displayName, "period": aca.rawPeriod,
            "reference": aca.requestReferenceId, "taxCode": aca.taxCode,
        }
    if getattr(answer, "signedRenewalInfo", None):
        r = verifier.verify_and_decode_renewal_info(answer.signedRenewalInfo)
        aca = r.advancedCommerceInfo
        out["renewal"] = {
            "autoRenew": r.rawAutoRenewStatus, "price": r.renewalPrice,
            "token": aca.consistencyToken, "period": aca.rawPeriod,
            "items": [[i.SKU, i.price, i.priceIncreaseInfo.rawStatus if i.priceIncreaseInfo
                       else None] for i in aca.items],
        }
    return out


def error(name, thunk):
    try:
        thunk()
        seen["errors"][name] = None
    except APIException as e:
        seen["errors"][name] = [e.http_status_code, e.raw_api_error]


control(["set time-rate realTime", "set advanced-commerce %s subscription" % NEWS,
         "set advanced-commerce %s one-time" % BOOKS])
created = buy(NEWS, AdvancedCommerceSubscriptionCreateRequest(
    requestInfo=info(), currency="USD", taxCode="C003-00-1", period=AdvancedCommercePeriod.P1M,
    descriptors=AdvancedCommerceDescriptors(description="All the news", displayName="News+"),
    items=[
        AdvancedCommerceSubscriptionCreateItem(
            SKU="daily", description="Daily", displayName="Daily", price=4990),
        AdvancedCommerceSubscriptionCreateItem(
            SKU="sports", description="Sports", displayName="Sports", price=1990,
            offer=AdvancedCommerceOffer(
                period=AdvancedCommerceOfferPeriod.P1M, periodCount=1, price=990,
                reason=AdvancedCommerceOfferReason.ACQUISITION)),
    ]))
seen["created"] = created
modified = buy(NEWS, AdvancedCommerceSubscriptionModifyInAppRequest(
    requestInfo=info(), transactionId=str(created), retainBillingCycle=True,
    addItems=[AdvancedCommerceSubscriptionModifyAddItem(
        SKU="weather", description="Weather", displayName="Weather", price=990,
        proratedPrice=500)]))
seen["modified"] = modified
price = decoded(call("subscription/changePrice", created,
                     AdvancedCommerceSubscriptionPriceChangeRequest(
                         requestInfo=info(), items=[AdvancedCommerceSubscriptionPriceChangeItem(
                             SKU="daily", price=5490)]),
                     AdvancedCommerceSubscriptionPriceChangeResponse))
seen["price"] = price
token = price["renewal"]["token"]
error("staleToken", lambda: call(
    "subscription/changeMetadata", created,
    AdvancedCommerceSubscriptionChangeMetadataRequest(
        requestInfo=info("stale"), descriptors=AdvancedCommerceSubscriptionChangeMetadataDescriptors(
            displayName="Stale", effective=AdvancedCommerceEffective.IMMEDIATELY)),
    AdvancedCommerceSubscriptionChangeMetadataResponse))
metadata = decoded(call("subscription/changeMetadata", created,
                        AdvancedCommerceSubscriptionChangeMetadataRequest(
                            requestInfo=info(token),
                            descriptors=AdvancedCommerceSubscriptionChangeMetadataDescriptors(
                                displayName="News Max", effective=AdvancedCommerceEffective.IMMEDIATELY)),
                        AdvancedCommerceSubscriptionChangeMetadataResponse))
seen["metadata"] = metadata
seen["cancel"] = decoded(call("subscription/cancel", created,
                              AdvancedCommerceSubscriptionCancelRequest(requestInfo=info()),
                              AdvancedCommerceSubscriptionCancelResponse))
seen["reactivated"] = buy(NEWS, AdvancedCommerceSubscriptionReactivateInAppRequest(
    requestInfo=info(), transactionId=str(created)))
# In-app requests carry the wall clock's iat: made before the clock moves on.
charged = buy(BOOKS, AdvancedCommerceOneTimeChargeCreateRequest(
    requestInfo=info(), currency="USD", taxCode="C003-00-1",
    item=AdvancedCommerceOneTimeChargeItem(
        SKU="book", description="A book", displayName="Book", price=12990)))
control(["advance 1mo"])
statuses = client.get_all_subscription_statuses(str(created))
latest = statuses.data[0].lastTransactions[0]
renewal_transaction = verifier.verify_and_decode_signed_transaction(latest.signedTransactionInfo)
seen["renewed"] = {
    "price": renewal_transaction.price,
    "items": [[i.SKU, i.price] for i in renewal_transaction.advancedCommerceInfo.items],
    "displayName": renewal_transaction.advancedCommerceInfo.descriptors.displayName,
}
seen["refund"] = decoded(call("transaction/requestRefund", charged,
                              AdvancedCommerceRequestRefundRequest(
                                  requestInfo=info(), refundRiskingPreference=False,
                                  items=[AdvancedCommerceRequestRefundItem(
                                      SKU="book", revoke=True,
                                      refundReason=AdvancedCommerceRefundReason.UNINTENDED_PURCHASE,
                                      refundType=AdvancedCommerceRefundType.FULL)]),
                              AdvancedCommerceRequestRefundResponse))
ordinary = [e for e in control(["buy socialfeed.monthly"]) if e.get("event") == "purchaseResult"]
ordinary_id = ordinary[-1]["transactionID"]
migrate = lambda: AdvancedCommerceSubscriptionMigrateRequest(
    requestInfo=info(), targetProductId=NEWS, taxCode="C003-00-1",
    descriptors=AdvancedCommerceSubscriptionMigrateDescriptors(
        description="Social", displayName="Social"),
    items=[AdvancedCommerceSubscriptionMigrateItem(
        SKU="feed", description="Feed", displayName="Feed")])
error("notAdvancedCommerce", lambda: call(
    "subscription/cancel", ordinary_id, AdvancedCommerceSubscriptionCancelRequest(
        requestInfo=info()), AdvancedCommerceSubscriptionCancelResponse))
seen["migrated"] = decoded(call("subscription/migrate", ordinary_id, migrate(),
                                AdvancedCommerceSubscriptionMigrateResponse))
error("migratedTwice", lambda: call("subscription/migrate", ordinary_id, migrate(),
                                    AdvancedCommerceSubscriptionMigrateResponse))
error("unknownTransaction", lambda: call(
    "subscription/cancel", 999999, AdvancedCommerceSubscriptionCancelRequest(requestInfo=info()),
    AdvancedCommerceSubscriptionCancelResponse))
seen["revoke"] = decoded(call("subscription/revoke", created,
                              AdvancedCommerceSubscriptionRevokeRequest(
                                  requestInfo=info(), refundRiskingPreference=True,
                                  refundType=AdvancedCommerceRefundType.PRORATED,
                                  refundReason=AdvancedCommerceRefundReason.OTHER),
                              AdvancedCommerceSubscriptionRevokeResponse))
print(json.dumps(seen))
