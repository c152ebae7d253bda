"""A backend's integration test against `storekeeper serve`, to copy into your own project.

It plays both sides a real backend meets:
  * the App Store's notifications: a webhook on --listen verifies each signedPayload with Apple's
    SignedDataVerifier and keeps a tiny entitlement table, as your backend would;
  * the App Store Server API: AppStoreServerAPIClient (Apple's library) with its base URL pointed
    at storekeeper, to look the subscription up and extend it.
The app's side (buying, refunding, time passing) is driven through storekeeper's control
endpoint, POST /storekeeper/v1/commands, with command-language lines.

Start storekeeper first (from the Storekeeper checkout), then run this:

  swift run storekeeper serve --paused --environment LocalTesting \\
      --notify-url http://127.0.0.1:8081/notifications Configs/FoodTruck.storekit
  python3 backend_test.py --server http://127.0.0.1:8080 --listen 8081

Exits 0 when every step holds, 1 with the failed step otherwise.
"""
import argparse
import json
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

BUNDLE_ID = "com.example.storekeeper"  # the bundle id storekeeper signs with by default
ENVIRONMENT = Environment.LOCAL_TESTING

# Self-signed LocalTesting payloads: no Apple root certificates, no online checks.
verifier = SignedDataVerifier([], False, ENVIRONMENT, BUNDLE_ID, None)

entitlements = {}  # originalTransactionId -> {"product": ..., "active": bool}
received = []  # notification types, in the order they arrived
lock = threading.Condition()


class Webhook(BaseHTTPRequestHandler):
    """Your backend's notification endpoint: verify, update entitlements, answer 200."""

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        notification = verifier.verify_and_decode_notification(body["signedPayload"])
        kind = notification.rawNotificationType
        if notification.data and notification.data.signedTransactionInfo:
            transaction = verifier.verify_and_decode_signed_transaction(
                notification.data.signedTransactionInfo)
            with lock:
                entitlements[transaction.originalTransactionId] = {
                    "product": transaction.productId,
                    "active": kind not in ("REFUND", "REVOKE", "EXPIRED"),
                }
        with lock:
            received.append(kind)
            lock.notify_all()
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


def wait_for(kind, timeout=15):
    """Waits until a notification of `kind` arrived."""
    deadline = time.time() + timeout
    with lock:
        while kind not in received:
            if not lock.wait(deadline - time.time()):
                raise AssertionError(f"no {kind} notification within {timeout} s; got {received}")


def commands(server, token, *lines):
    """Plays the app: applies command-language lines, returns the JSON-lines events. A server
    started with --api-key asks for the same bearer token as the App Store Server API."""
    request = urllib.request.Request(
        server + "/storekeeper/v1/commands", data="\n".join(lines).encode(),
        headers={"Content-Type": "text/plain", "Authorization": "Bearer " + token},
        method="POST")
    with urllib.request.urlopen(request) as answer:
        return [json.loads(line) for line in answer.read().decode().splitlines()]


def check(step, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + step + (f": {detail}" if detail else ""))
    if not condition:
        sys.exit(1)


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--server", default="http://127.0.0.1:8080")
    arguments.add_argument("--listen", type=int, default=8081)
    arguments.add_argument("--key", help="your App Store Connect key (.p8); made up if absent")
    options = arguments.parse_args()

    webhook = ThreadingHTTPServer(("127.0.0.1", options.listen), Webhook)
    threading.Thread(target=webhook.serve_forever, daemon=True).start()

    if options.key:
        with open(options.key, "rb") as file:
            key = file.read()
    else:  # storekeeper without --api-key accepts any well-formed token
        key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption())
    client = AppStoreServerAPIClient(key, "KEY_ID", "ISSUER_ID", BUNDLE_ID, ENVIRONMENT)
    client._base_url = options.server  # the library's LocalTesting host is a placeholder

    # 1. The app buys a subscription; the backend hears SUBSCRIBED and grants access.
    token = client._generate_token()  # the library's own bearer token, for the control endpoint
    events = commands(options.server, token, "buy socialfeed.monthly")
    original = str(next(e["transaction"]["originalID"] for e in events
                        if e["event"] == "transaction"))
    wait_for("SUBSCRIBED")
    check("SUBSCRIBED grants access", entitlements.get(original, {}).get("active") is True)

    # 2. The backend asks the App Store for the subscription's status.
    statuses = client.get_all_subscription_statuses(original)
    last = statuses.data[0].lastTransactions[0]
    renewal = verifier.verify_and_decode_renewal_info(last.signedRenewalInfo)
    check("Get All Subscription Statuses says active", last.rawStatus == 1, f"status {last.rawStatus}")
    check("its renewal info verifies", renewal.originalTransactionId == original)

    # 3. Customer support extends the subscription by a week.
    before = verifier.verify_and_decode_signed_transaction(last.signedTransactionInfo).expiresDate
    client.extend_subscription_renewal_date(original, ExtendRenewalDateRequest(
        extendByDays=7, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION,
        requestIdentifier="support-ticket-1"))
    wait_for("RENEWAL_EXTENDED")
    after = verifier.verify_and_decode_signed_transaction(
        client.get_transaction_info(original).signedTransactionInfo).expiresDate
    # 7 days at the configuration's time rate (FoodTruck's is accelerated: seconds, not days).
    check("the extension moves the expiry later", after > before,
          f"by {(after - before) / 1000:g} s of simulated time")

    # 4. Apple refunds it; the backend hears REFUND and takes access away.
    commands(options.server, token, f"refund {original}")
    wait_for("REFUND")
    check("REFUND revokes access", entitlements[original]["active"] is False)

    # 5. The refund shows in Get Refund History.
    refunds = client.get_refund_history(original, None)
    check("Get Refund History lists it", len(refunds.signedTransactions) == 1)
    webhook.shutdown()
    print("all steps passed")


if __name__ == "__main__":
    main()
