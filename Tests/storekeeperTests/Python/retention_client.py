"""A backend's whole Retention Messaging round trip against `storekeeper serve`, through Apple's
App Store Server Library.

Usage: retention_client.py BASE_URL KEY.p8 ROOT.der CONTROL_TOKEN OFFER_KEY.pem
Uploads images and messages, sets a default and the real-time URL, runs a Get Retention
Message endpoint that verifies every request with verify_and_decode_realtime_request, drives
the customer's side through the control endpoint (retention show / accept) with each kind of
answer and each failure, and runs Apple's performance test. Prints one JSON object of what it
saw.
"""
import json

import attr
import struct
import sys
import threading
import time
import urllib.error
import urllib.request
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from uuid import UUID

from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient
from appstoreserverlibrary.jws_signature_creator import PromotionalOfferV2SignatureCreator
from appstoreserverlibrary.models.AlternateProduct import AlternateProduct
from appstoreserverlibrary.models.BulletPoint import BulletPoint
from appstoreserverlibrary.models.DefaultConfigurationRequest import DefaultConfigurationRequest
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ImageSize import ImageSize
from appstoreserverlibrary.models.Message import Message
from appstoreserverlibrary.models.PerformanceTestRequest import PerformanceTestRequest
from appstoreserverlibrary.models.PromotionalOffer import PromotionalOffer
from appstoreserverlibrary.models.PromotionalOfferSignatureV1 import PromotionalOfferSignatureV1
from appstoreserverlibrary.models.RealtimeUrlRequest import RealtimeUrlRequest
from appstoreserverlibrary.models.UploadMessageImage import UploadMessageImage
from appstoreserverlibrary.models.UploadMessageRequestBody import UploadMessageRequestBody
from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

BUNDLE = "com.example.storekeeper"
BASE, KEY, ROOT, TOKEN, OFFER_KEY = sys.argv[1:6]
client = AppStoreServerAPIClient(open(KEY, "rb").read(), "KEY_ID", "ISSUER_ID", BUNDLE,
                                 Environment.SANDBOX)
client._base_url = BASE
verifier = SignedDataVerifier([open(ROOT, "rb").read()], False, Environment.SANDBOX, BUNDLE, 1)
offer_key = open(OFFER_KEY, "rb").read()

IMAGE = UUID("11111111-1111-4111-8111-111111111111")
BULLET = UUID("22222222-2222-4222-8222-222222222222")
TEXT = UUID("33333333-3333-4333-8333-333333333333")
SWITCH = UUID("44444444-4444-4444-8444-444444444444")
OFFER = UUID("55555555-5555-4555-8555-555555555555")
seen = {"errors": {}, "endpoint": {"requests": [], "failures": []}}


def png(width, height, alpha=False):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    channels = 4 if alpha else 3
    raw = b"".join(b"\x00" + b"\x80" * (width * channels) for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))


def error(name, call):
    try:
        call()
        seen["errors"][name] = None
    except APIException as e:
        seen["errors"][name] = [e.http_status_code, e.raw_api_error]


# What the endpoint answers next, and what it did.
state = {"answer": None, "delay": 0.0, "status": 200, "inFlight": 0, "mostInFlight": 0}
lock = threading.Lock()


class Endpoint(BaseHTTPRequestHandler):
    def do_POST(self):
        with lock:
            state["inFlight"] += 1
            state["mostInFlight"] = max(state["mostInFlight"], state["inFlight"])
        try:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            decoded = verifier.verify_and_decode_realtime_request(body["signedPayload"])
            with lock:
                seen["endpoint"]["requests"].append({
                    "originalTransactionId": decoded.originalTransactionId,
                    "productId": decoded.productId, "userLocale": decoded.userLocale,
                    "requestIdentifier": str(decoded.requestIdentifier),
                    "environment": decoded.rawEnvironment, "appAppleId": decoded.appAppleId,
                    "signedDate": decoded.signedDate})
        except Exception as e:
            with lock:
                seen["endpoint"]["failures"].append(repr(e))
        time.sleep(state["delay"])
        out = (state["answer"] if isinstance(state["answer"], str)
               else json.dumps(state["answer"])).encode()
        # Answered once the answer is handed over: the client may read it and send its next
        # request before this thread gets to count again, so it stops counting first.
        with lock:
            state["inFlight"] -= 1
        try:
            self.send_response(state["status"])
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)
        except Exception:
            pass

    def log_message(self, *args):
        pass


endpoint = ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
threading.Thread(target=endpoint.serve_forever, daemon=True).start()
URL = "http://127.0.0.1:%d/retention" % endpoint.server_address[1]


def control(lines):
    request = urllib.request.Request(
        BASE + "/storekeeper/v1/commands", data="\n".join(lines).encode(), method="POST",
        headers={"Authorization": "Bearer " + TOKEN})
    started = time.time()
    try:
        with urllib.request.urlopen(request) as response:
            text = response.read().decode()
    except urllib.error.HTTPError as refused:  # a refused line: its error event is in the body
        text = refused.read().decode()
    events = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    seen.setdefault("controlErrors", []).extend(
        e.get("message") for e in events if e.get("event") == "error")
    return events, time.time() - started


def show(name, answer, delay=0.0, status=200, customer=None):
    state.update(answer=answer, delay=delay, status=status)
    before = len(seen["endpoint"]["requests"])
    lines = (["customer " + customer] if customer else []) + ["retention show"]
    events, seconds = control(lines)
    shown = [e for e in events if e.get("event") == "retentionMessage"]
    requested = [e for e in events if e.get("event") == "retentionRequest"]
    seen[name] = {"message": shown[-1] if shown else events, "seconds": seconds,
                  "problem": requested[-1].get("problem") if requested else None,
                  "requests": len(seen["endpoint"]["requests"]) - before}


# The setup.
client.upload_image(IMAGE, png(3840, 400), ImageSize.FULL_SIZE)
client.upload_image(BULLET, png(96, 96), ImageSize.BULLET_POINT)
error("imageAgain", lambda: client.upload_image(IMAGE, png(3840, 400), ImageSize.FULL_SIZE))
error("transparent", lambda: client.upload_image(UUID(int=1), png(3840, 400, True)))
error("wrongSize", lambda: client.upload_image(UUID(int=2), png(1000, 400)))
error("notPNG", lambda: client.upload_image(UUID(int=3), b"GIF89a not a png"))
client.upload_message(TEXT, UploadMessageRequestBody(
    header="Stay for the new menu", body="Every week, new trucks near you.",
    image=UploadMessageImage(imageIdentifier=IMAGE, altText="A food truck"),
    bulletPoints=[BulletPoint(text="Weekly specials", imageIdentifier=BULLET, altText="Star")]))
client.upload_message(SWITCH, UploadMessageRequestBody(
    header="Go premium instead", body="Premium costs a little more and has everything."))
client.upload_message(OFFER, UploadMessageRequestBody(
    header="A loyalty price", body="Stay and pay less for the next months."))
error("messageAgain", lambda: client.upload_message(
    TEXT, UploadMessageRequestBody(header="H", body="B")))
error("bulletImageAsMain", lambda: client.upload_message(UUID(int=4), UploadMessageRequestBody(
    header="H", body="B", image=UploadMessageImage(imageIdentifier=BULLET, altText="x"))))
seen["images"] = [[str(i.imageIdentifier), i.rawImageState, i.rawImageSize]
                  for i in client.get_image_list().imageIdentifiers]
seen["messages"] = [[str(m.messageIdentifier), m.rawMessageState]
                    for m in client.get_message_list().messageIdentifiers]
client.configure_default_message("socialfeed.monthly", "en-US",
                                 DefaultConfigurationRequest(messageIdentifier=TEXT))
seen["default"] = str(client.get_default_message("socialfeed.monthly", "en-US").messageIdentifier)
error("noDefault", lambda: client.get_default_message("socialfeed.yearly", "en-US"))
error("badLocale", lambda: client.configure_default_message(
    "socialfeed.monthly", "english", DefaultConfigurationRequest(messageIdentifier=TEXT)))
error("notASubscription", lambda: client.configure_default_message(
    "foodtruck.donuts.box", "en-US", DefaultConfigurationRequest(messageIdentifier=TEXT)))
error("unknownMessage", lambda: client.configure_default_message(
    "socialfeed.monthly", "en-US", DefaultConfigurationRequest(messageIdentifier=UUID(int=9))))
error("imageInUse", lambda: client.delete_image(IMAGE))
error("unknownImage", lambda: client.delete_image(UUID(int=9)))
error("noURL", lambda: client.get_realtime_url())
error("badURL", lambda: client.configure_realtime_url(RealtimeUrlRequest(realtimeURL="ftp://x")))
client.configure_realtime_url(RealtimeUrlRequest(realtimeURL=URL))
seen["url"] = client.get_realtime_url().realtimeURL

# A rejected message cannot be a default.
control(["retention review message %s rejected" % SWITCH])
error("rejectedDefault", lambda: client.configure_default_message(
    "socialfeed.yearly", "en-US", DefaultConfigurationRequest(messageIdentifier=SWITCH)))
seen["reviewed"] = [[str(m.messageIdentifier), m.rawMessageState]
                    for m in client.get_message_list().messageIdentifiers]
control(["retention review message %s approved" % SWITCH])

# The customer's side: alice subscribes and opens her subscription's page.
events, _ = control(["customer alice", "set locale en_US", "buy socialfeed.monthly", "customer"])
alice = next(e["transaction"]["originalID"] for e in events if e.get("event") == "transaction")
show("text", {"message": {"messageIdentifier": str(TEXT)}}, customer="alice")
show("failure", {}, status=500, customer="alice")
show("slow", {"message": {"messageIdentifier": str(TEXT)}}, delay=2.5, customer="alice")
show("garbage", "not json", customer="alice")
show("imageInSwitch", {"alternateProduct": {"messageIdentifier": str(TEXT),
                                            "productId": "socialfeed.yearly"}},
     customer="alice")
events, _ = control(["customer alice", "retention accept"])
seen["acceptNothing"] = [e.get("message") for e in events if e.get("event") == "error"]
show("switch", {"alternateProduct": {"messageIdentifier": str(SWITCH),
                                     "productId": "socialfeed.premium.monthly"}},
     customer="alice")
events, _ = control(["customer alice", "retention accept"])
seen["switchAccepted"] = [e["transaction"]["productID"] for e in events
                          if e.get("event") == "transaction"]

# bob redeems a promotional offer (V2), carol one signed the StoreKit 1 way (V1).
events, _ = control(["customer bob", "set locale en_US", "buy socialfeed.monthly", "customer"])
bob = next(e["transaction"]["originalID"] for e in events if e.get("event") == "transaction")
v2 = PromotionalOfferV2SignatureCreator(offer_key, "170D84A6", "ISSUER_ID", BUNDLE)
signature = v2.create_signature("socialfeed.monthly", "socialfeed.monthly.loyalty", None)
show("offer", {"promotionalOffer": {"messageIdentifier": str(OFFER),
                                    "promotionalOfferSignatureV2": signature}}, customer="bob")
events, _ = control(["customer bob", "retention accept"])
# An active subscriber's offer applies from a coming renewal; the App Store tells the backend.
seen["offerAccepted"] = [e.get("notificationType") for e in events
                         if e.get("event") == "notification"]
show("offerReplayed", {"promotionalOffer": {"messageIdentifier": str(OFFER),
                                            "promotionalOfferSignatureV2": signature}},
     customer="bob")
events, _ = control(["customer carol", "set locale en_US", "buy socialfeed.monthly", "customer"])
nonce, stamp = UUID("66666666-6666-4666-8666-666666666666"), int(time.time() * 1000)
encoded = PromotionalOfferSignatureCreator(offer_key, "170D84A6", BUNDLE).create_signature(
    "socialfeed.monthly", "socialfeed.monthly.loyalty", "", nonce, stamp)
show("offerV1", {"promotionalOffer": {"messageIdentifier": str(OFFER),
                 "promotionalOfferSignatureV1": {
                     "encodedSignature": encoded, "productId": "socialfeed.monthly",
                     "nonce": str(nonce), "timestamp": stamp, "keyId": "170D84A6",
                     "offerIdentifier": "socialfeed.monthly.loyalty"}}}, customer="carol")

# Apple's performance test, with bob's subscription.
state.update(answer={"message": {"messageIdentifier": str(TEXT)}}, delay=0.05, status=200)
# The "slow" answer's thread may still be asleep (the App Store stopped waiting long ago).
for _ in range(100):
    with lock:
        if state["inFlight"] == 0:
            break
    time.sleep(0.05)
state["mostInFlight"] = 0
before = len(seen["endpoint"]["requests"])
started = client.initiate_performance_test(PerformanceTestRequest(originalTransactionId=str(bob)))
seen["performanceConfig"] = attr.asdict(started.config)
error("secondTest", lambda: client.initiate_performance_test(
    PerformanceTestRequest(originalTransactionId=str(bob))))
for _ in range(300):
    result = client.get_performance_test_results(started.requestId)
    if result.rawResult != "PENDING":
        break
    time.sleep(0.1)
seen["performance"] = {
    "result": result.rawResult, "successRate": result.successRate, "numPending": result.numPending,
    "target": result.target, "times": attr.asdict(result.responseTimes) if result.responseTimes else None,
    "failures": result.rawFailures, "sent": len(seen["endpoint"]["requests"]) - before,
    "mostInFlight": state["mostInFlight"]}
error("unknownTest", lambda: client.get_performance_test_results("no-such-test"))
error("testWithoutSubscription", lambda: client.initiate_performance_test(
    PerformanceTestRequest(originalTransactionId="99999")))
seen["alice"], seen["bob"] = alice, bob

# Deleting: the URL, the default (then the page shows nothing), a message, an image.
client.delete_realtime_url()
error("urlGone", lambda: client.get_realtime_url())
client.delete_default_message("socialfeed.monthly", "en-US")
client.delete_default_message("socialfeed.monthly", "en-US")
events, _ = control(["customer bob", "retention show"])
seen["afterDeletes"] = [e for e in events if e.get("event") == "retentionMessage"]
client.delete_message(TEXT)
client.delete_image(IMAGE)
seen["imagesLeft"] = [str(i.imageIdentifier) for i in client.get_image_list().imageIdentifiers]
print(json.dumps(seen))
