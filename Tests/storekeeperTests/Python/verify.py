"""Verifies Storekeeper's signed data with Apple's App Store Server Library.

Usage: verify.py ENVIRONMENT BUNDLE_ID [ROOT.pem]
Reads one item per line on stdin: a notification body {"signedPayload": ...} or
{"transaction" | "renewal" | "app": JWS}. Prints a JSON list with one entry per line:
the decoded fields, or {"error": STATUS}.
"""
import json
import sys

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding

mode, bundle = sys.argv[1], sys.argv[2]
roots = []
if len(sys.argv) > 3:
    with open(sys.argv[3], "rb") as f:
        roots = [x509.load_pem_x509_certificate(f.read()).public_bytes(Encoding.DER)]
environment = {
    "Xcode": Environment.XCODE,
    "LocalTesting": Environment.LOCAL_TESTING,
    "Sandbox": Environment.SANDBOX,
}[mode]
verifier = SignedDataVerifier(roots, False, environment, bundle, None)


def transaction(jws):
    t = verifier.verify_and_decode_signed_transaction(jws)
    return {
        "transactionId": t.transactionId, "originalTransactionId": t.originalTransactionId,
        "productId": t.productId, "bundleId": t.bundleId, "price": t.price,
        "currency": t.currency, "type": t.rawType, "transactionReason": t.rawTransactionReason,
        "environment": t.rawEnvironment, "storefront": t.storefront,
        "storefrontId": t.storefrontId, "purchaseDate": t.purchaseDate,
        "expiresDate": t.expiresDate, "revocationDate": t.revocationDate,
        "revocationReason": t.rawRevocationReason, "offerType": t.rawOfferType,
        "offerDiscountType": t.rawOfferDiscountType, "quantity": t.quantity,
        "inAppOwnershipType": t.rawInAppOwnershipType,
        "subscriptionGroupIdentifier": t.subscriptionGroupIdentifier,
    }


def renewal(jws):
    r = verifier.verify_and_decode_renewal_info(jws)
    return {
        "originalTransactionId": r.originalTransactionId, "autoRenewStatus": r.rawAutoRenewStatus,
        "autoRenewProductId": r.autoRenewProductId, "productId": r.productId,
        "expirationIntent": r.rawExpirationIntent,
        "isInBillingRetryPeriod": r.isInBillingRetryPeriod,
        "gracePeriodExpiresDate": r.gracePeriodExpiresDate,
        "priceIncreaseStatus": r.rawPriceIncreaseStatus, "environment": r.rawEnvironment,
        "renewalDate": r.renewalDate,
    }


def decode(item):
    if "signedPayload" in item:
        n = verifier.verify_and_decode_notification(item["signedPayload"])
        entry = {"notificationType": n.rawNotificationType, "subtype": n.rawSubtype,
                 "notificationUUID": n.notificationUUID}
        if n.data:
            entry["environment"] = n.data.rawEnvironment
            entry["bundleId"] = n.data.bundleId
            entry["status"] = n.data.rawStatus
            if n.data.signedTransactionInfo:
                entry["transaction"] = transaction(n.data.signedTransactionInfo)
            if n.data.signedRenewalInfo:
                entry["renewal"] = renewal(n.data.signedRenewalInfo)
        return entry
    if "transaction" in item:
        return transaction(item["transaction"])
    if "renewal" in item:
        return renewal(item["renewal"])
    a = verifier.verify_and_decode_app_transaction(item["app"])
    return {"bundleId": a.bundleId, "environment": a.rawReceiptType,
            "applicationVersion": a.applicationVersion}


results = []
for line in sys.stdin:
    if not line.strip():
        continue
    try:
        results.append(decode(json.loads(line)))
    except VerificationException as error:
        results.append({"error": error.status.name})
print(json.dumps(results))
