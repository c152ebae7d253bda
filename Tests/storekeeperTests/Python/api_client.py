"""Drives `storekeeper serve` with Apple's App Store Server Library and verifies what it signs.

Usage: api_client.py BASE_URL KEY.p8
Calls Get Transaction Info, Get Transaction History (v1 and v2, every page), Get All
Subscription Statuses, Get Refund History, Get App Transaction Info and an unknown id through AppStoreServerAPIClient (base URL pointed at the
server, LocalTesting environment), verifies every signed value with SignedDataVerifier, and
prints one JSON object of what it saw.
"""
import json
import sys

from appstoreserverlibrary.api_client import (APIException, AppStoreServerAPIClient,
                                               GetTransactionHistoryVersion)
from appstoreserverlibrary.models.Environment import Environment
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
try:
    client.get_transaction_info("424242")
except APIException as error:
    seen["unknown"] = {"status": error.http_status_code, "code": error.raw_api_error}
try:
    stranger.get_transaction_info("0")
except APIException as error:
    seen["stranger"] = error.http_status_code
print(json.dumps(seen))
