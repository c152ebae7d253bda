"""Drives `storekeeper serve` with Apple's App Store Server Library and verifies what it signs.

Usage: api_client.py BASE_URL KEY.p8 ORDER_ID
Calls every endpoint `storekeeper serve` answers through AppStoreServerAPIClient (base URL
pointed at the server, LocalTesting environment): first the reads (transaction info and
history v1/v2 paged, subscription statuses, refund history, app transaction, order lookup),
then the changes (consumption v1/v2, app account token, renewal extension single and mass with
its status, finish), then notifications (a test one and its status, the history paged). Every
signed value is verified with SignedDataVerifier. Prints one JSON object of what it saw.
"""
import json
import sys
import time
import uuid

from appstoreserverlibrary.api_client import (APIException, AppStoreServerAPIClient,
                                               GetTransactionHistoryVersion)
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.DeliveryStatusV1 import DeliveryStatusV1
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import (
    MassExtendRenewalDateRequest)
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import (
    UpdateAppAccountTokenRequest)
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

BUNDLE = "com.example.storekeeper"
with open(sys.argv[2], "rb") as file:
    key = file.read()
client = AppStoreServerAPIClient(key, "KEY_ID", "ISSUER_ID", BUNDLE, Environment.LOCAL_TESTING)
client._base_url = sys.argv[1]
stranger_key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
stranger = AppStoreServerAPIClient(
    stranger_key, "KEY_ID", "ISSUER_ID", BUNDLE, Environment.LOCAL_TESTING)
stranger._base_url = sys.argv[1]
verifier = SignedDataVerifier([], False, Environment.LOCAL_TESTING, BUNDLE, None)

seen = {}
info = client.get_transaction_info("0")
seen["info"] = verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo).transactionId
for version in (GetTransactionHistoryVersion.V1, GetTransactionHistoryVersion.V2):
    ids, pages, revision = [], 0, None
    while True:
        page = client.get_transaction_history("0", revision, TransactionHistoryRequest(), version)
        pages += 1
        ids += [verifier.verify_and_decode_signed_transaction(t).transactionId
                for t in page.signedTransactions]
        if not page.hasMore:
            break
        revision = page.revision
    seen["history_" + version.value] = {"ids": ids, "pages": pages}
statuses = client.get_all_subscription_statuses("0")
seen["statuses"] = [
    {"group": g.subscriptionGroupIdentifier, "status": t.rawStatus,
     "renewal": verifier.verify_and_decode_renewal_info(t.signedRenewalInfo).originalTransactionId,
     "transaction": verifier.verify_and_decode_signed_transaction(t.signedTransactionInfo).transactionId}
    for g in statuses.data for t in g.lastTransactions]
refunds = client.get_refund_history("0", None)
seen["refunds"] = [verifier.verify_and_decode_signed_transaction(t).transactionId
                   for t in refunds.signedTransactions]
app = client.get_app_transaction_info("0")
seen["app"] = verifier.verify_and_decode_app_transaction(app.signedAppTransactionInfo).bundleId
order = client.look_up_order_id(sys.argv[3])
seen["order"] = {"status": order.rawStatus, "ids": [
    verifier.verify_and_decode_signed_transaction(t).transactionId
    for t in order.signedTransactions]}


def failure(call, *arguments):
    """Apple's error for a call that must fail: its HTTP status and errorCode."""
    try:
        call(*arguments)
    except APIException as error:
        return {"status": error.http_status_code, "code": error.raw_api_error}
    return None


seen["unknown"] = failure(lambda: client.get_transaction_info("424242"))
seen["malformed"] = failure(lambda: client.get_transaction_info("abc"))
seen["stranger"] = failure(lambda: stranger.get_transaction_info("0"))["status"]
seen["messaging"] = failure(client.get_default_message, "socialfeed.monthly", "en-US")

# Changes. Transaction 3 has a refund request, so its CONSUMPTION_REQUEST went out.
client.send_consumption_information("3", ConsumptionRequest(
    customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED))
client.send_consumption_data("3", ConsumptionRequestV1(
    customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatusV1.DELIVERED_AND_WORKING_PROPERLY))
seen["consumption_without_request"] = failure(lambda: client.send_consumption_information(
    "4", ConsumptionRequest(customerConsented=True, sampleContentProvided=False,
                            deliveryStatus=DeliveryStatus.DELIVERED)))
token = str(uuid.UUID(int=7))
client.set_app_account_token("24", UpdateAppAccountTokenRequest(appAccountToken=token))
seen["token"] = verifier.verify_and_decode_signed_transaction(
    client.get_transaction_info("25").signedTransactionInfo).appAccountToken
extended = client.extend_subscription_renewal_date("24", ExtendRenewalDateRequest(
    extendByDays=7, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION,
    requestIdentifier="single-1"))
seen["extend"] = {"original": extended.originalTransactionId, "success": extended.success,
                  "effective": extended.effectiveDate}
seen["extend_too_far"] = failure(lambda: client.extend_subscription_renewal_date(
    "24", ExtendRenewalDateRequest(extendByDays=91, extendReasonCode=ExtendReasonCode.OTHER,
                                   requestIdentifier="single-2")))
mass_id = str(uuid.UUID(int=9))
client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
    extendByDays=3, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE,
    requestIdentifier=mass_id, productId="socialfeed.monthly"))
mass = client.get_status_of_subscription_renewal_date_extensions(mass_id, "socialfeed.monthly")
seen["mass"] = {"complete": mass.complete, "succeeded": mass.succeededCount,
                "failed": mass.failedCount}
client.finish_transaction("6")

# Notifications: a test one through the real delivery, then everything sent.
test_token = client.request_test_notification().testNotificationToken
deadline = time.time() + 20
while True:
    test = client.get_test_notification_status(test_token)
    if test.sendAttempts or time.time() > deadline:
        break
    time.sleep(0.1)
seen["test"] = {
    "type": verifier.verify_and_decode_notification(test.signedPayload).rawNotificationType,
    "attempts": [a.rawSendAttemptResult for a in test.sendAttempts or []]}
start = 1795312800000  # 2026-11-22T02:00:00Z, the session's start
while True:  # every delivery answered, so each has its attempt
    pages, types, results, pagination = 0, [], [], None
    while True:
        page = client.get_notification_history(pagination, NotificationHistoryRequest(
            startDate=start - 86_400_000, endDate=start + 30 * 86_400_000))
        pages += 1
        for item in page.notificationHistory:
            decoded = verifier.verify_and_decode_notification(item.signedPayload)
            types.append(decoded.rawNotificationType
                         + (":" + decoded.rawSubtype if decoded.rawSubtype else ""))
            results.append([a.rawSendAttemptResult for a in item.sendAttempts])
        if not page.hasMore:
            break
        pagination = page.paginationToken
    if all(results) or time.time() > deadline:
        break
    time.sleep(0.1)
seen["history"] = {"pages": pages, "types": types, "results": results}
print(json.dumps(seen))
