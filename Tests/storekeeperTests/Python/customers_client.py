"""Two customers of one `storekeeper serve`, read through Apple's App Store Server Library.

Usage: customers_client.py BASE_URL KEY.p8 ALICE_ID BOB_ID
Alice and Bob subscribed to the same product; Bob was refunded. For each, by one of their
transaction ids: subscription statuses, transaction history (v2, and the deprecated v1 that
is the libraries' default), refund history, the app transaction's appTransactionId, and the
notification history limited to that customer. Every signed value is verified with SignedDataVerifier. Prints one JSON object of what it saw.
"""
import json
import sys

from appstoreserverlibrary.api_client import (AppStoreServerAPIClient,
                                               GetTransactionHistoryVersion)
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

BUNDLE = "com.example.storekeeper"
with open(sys.argv[2], "rb") as file:
    key = file.read()
client = AppStoreServerAPIClient(key, "KEY_ID", "ISSUER_ID", BUNDLE, Environment.LOCAL_TESTING)
client._base_url = sys.argv[1]
verifier = SignedDataVerifier([], False, Environment.LOCAL_TESTING, BUNDLE, None)
start = 1795312800000  # 2026-11-22T02:00:00Z, the session's start

seen = {}
for name, id in (("alice", sys.argv[3]), ("bob", sys.argv[4])):
    customer = {}
    statuses = client.get_all_subscription_statuses(id)
    customer["statuses"] = [
        {"status": t.rawStatus,
         "transaction": verifier.verify_and_decode_signed_transaction(t.signedTransactionInfo)
         .transactionId,
         "appTransactionId": verifier.verify_and_decode_renewal_info(t.signedRenewalInfo)
         .appTransactionId}
        for g in statuses.data for t in g.lastTransactions]
    history = client.get_transaction_history(
        id, None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
    decoded = [verifier.verify_and_decode_signed_transaction(t)
               for t in history.signedTransactions]
    customer["history"] = [t.transactionId for t in decoded]
    # The libraries' default version, the deprecated v1, reads the same customer's history.
    v1 = client.get_transaction_history(
        id, None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V1)
    customer["historyV1"] = [verifier.verify_and_decode_signed_transaction(t).transactionId
                             for t in v1.signedTransactions]
    customer["appTransactionIds"] = sorted({t.appTransactionId for t in decoded})
    customer["refunds"] = [
        verifier.verify_and_decode_signed_transaction(t).transactionId
        for t in client.get_refund_history(id, None).signedTransactions]
    page = client.get_notification_history(None, NotificationHistoryRequest(
        startDate=start - 86_400_000, endDate=start + 30 * 86_400_000, transactionId=id))
    notifications = []
    for item in page.notificationHistory:
        notification = verifier.verify_and_decode_notification(item.signedPayload)
        signed = verifier.verify_and_decode_signed_transaction(
            notification.data.signedTransactionInfo)
        notifications.append({
            "type": notification.rawNotificationType
            + (":" + notification.rawSubtype if notification.rawSubtype else ""),
            "uuid": notification.notificationUUID,
            "transaction": signed.transactionId})
    customer["notifications"] = notifications
    seen[name] = customer
print(json.dumps(seen))
