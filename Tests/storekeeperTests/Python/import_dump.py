"""One customer as the App Store Server API shows them, read through Apple's App Store Server
Library: what an import must reproduce.

Usage: import_dump.py BASE_URL KEY.p8 ROOT.der TRANSACTION_ID...
For each id: Get Transaction History (v2, every page), Get All Subscription Statuses and Get
Refund History, every signed value verified with SignedDataVerifier against ROOT (Sandbox) and
decoded to Apple's model; Get Transaction Info of each transaction. signedDate is left out (it
is when the answer was signed). Prints one JSON object: {id: {"history": [...], "statuses":
[...], "refunds": [...], "info": {...}}}.
"""
import json
import sys

import attr
from appstoreserverlibrary.api_client import (AppStoreServerAPIClient,
                                               GetTransactionHistoryVersion)
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

BUNDLE = "com.example.storekeeper"
BASE, KEY, ROOT = sys.argv[1:4]
client = AppStoreServerAPIClient(open(KEY, "rb").read(), "KEY_ID", "ISSUER_ID", BUNDLE,
                                 Environment.SANDBOX)
client._base_url = BASE
verifier = SignedDataVerifier([open(ROOT, "rb").read()], False, Environment.SANDBOX, BUNDLE, 1)


def model(value):
    """A decoded model as a dict of Apple's raw field values, signedDate left out."""
    fields = attr.asdict(value, recurse=False)
    plain = {}
    for name, field in fields.items():
        if name.startswith("raw") or name == "signedDate" or field is None:
            continue
        raw = fields.get("raw" + name[0].upper() + name[1:])
        plain[name] = raw if raw is not None else getattr(field, "value", field)
    return plain


def history(id):
    items, revision = [], None
    while True:
        page = client.get_transaction_history(
            id, revision, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
        items += [model(verifier.verify_and_decode_signed_transaction(t))
                  for t in page.signedTransactions]
        if not page.hasMore:
            return items
        revision = page.revision


def statuses(id):
    answer = client.get_all_subscription_statuses(id)
    return [{"group": g.subscriptionGroupIdentifier, "status": t.rawStatus,
             "originalTransactionId": t.originalTransactionId,
             "transaction": model(verifier.verify_and_decode_signed_transaction(
                 t.signedTransactionInfo)),
             "renewalInfo": model(verifier.verify_and_decode_renewal_info(t.signedRenewalInfo))}
            for g in answer.data for t in g.lastTransactions]


def refunds(id):
    items, revision = [], None
    while True:
        page = client.get_refund_history(id, revision)
        items += [model(verifier.verify_and_decode_signed_transaction(t))
                  for t in page.signedTransactions]
        if not page.hasMore:
            return items
        revision = page.revision


seen = {}
for id in sys.argv[4:]:
    info = client.get_transaction_info(id)
    seen[id] = {"history": history(id), "statuses": statuses(id), "refunds": refunds(id),
                "info": model(verifier.verify_and_decode_signed_transaction(
                    info.signedTransactionInfo))}
print(json.dumps(seen, sort_keys=True))
