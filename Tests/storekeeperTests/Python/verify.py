"""Verifies Storekeeper's signed data with Apple's App Store Server Library.

Usage: verify.py ENVIRONMENT BUNDLE_ID [ROOT.pem]
Reads one item per line on stdin: a notification body {"signedPayload": ...} or
{"transaction" | "renewal" | "app": JWS}. Prints a JSON list with one entry per line: every
field of what the library decoded (the JSON keys Apple documents: enums by their raw values,
nested signed data decoded too), or {"error": STATUS}.
"""
import base64
import enum
import json
import sys

import attr
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
from appstoreserverlibrary.models.ResponseBodyV2DecodedPayload import ResponseBodyV2DecodedPayload
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


def fields(model):
    """The model's fields under Apple's JSON keys: a raw value where the library keeps one."""
    if model is None:
        return None
    result = {}
    names = [f.name for f in attr.fields(type(model))]
    for name in names:
        if name.startswith("raw"):
            continue
        raw = "raw" + name[0].upper() + name[1:]
        value = getattr(model, raw) if raw in names else getattr(model, name)
        if raw in names and value is not None and getattr(model, name) is None:
            # A raw value the library's enum does not hold.
            result.setdefault("unknownEnums", []).append(name)
        if isinstance(value, enum.Enum):
            value = value.value
        if attr.has(type(value)):
            value = fields(value)
        if isinstance(value, list):
            value = [fields(v) if attr.has(type(v)) else v.value if isinstance(v, enum.Enum)
                     else v for v in value]
        if value is not None:
            result[name] = value
    return result


def payload_of(jws):
    """The payload of a JWS the library verified (or refused only for its environment)."""
    body = jws.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))


def add_unmodeled_token_fields(entry, payload):
    """The external purchase token's fields this library version has no model for (tokenType
    and tokenExpirationDate came after 3.1.2), read from the payload, and their names."""
    token = entry.get("externalPurchaseToken")
    if token is None:
        return
    extra = {k: v for k, v in payload["externalPurchaseToken"].items() if k not in token}
    if extra:
        token.update(extra)
        token["unmodeledFields"] = sorted(extra)


def decode(item):
    if "signedPayload" in item:
        n = verifier.verify_and_decode_notification(item["signedPayload"])
        entry = fields(n)
        data = entry.get("data")
        app = entry.get("appData")
        add_unmodeled_token_fields(entry, payload_of(item["signedPayload"]))
        if app and app.get("signedAppTransactionInfo"):
            app["appTransaction"] = fields(
                verifier.verify_and_decode_app_transaction(app["signedAppTransactionInfo"]))
        if data:
            if data.get("signedTransactionInfo"):
                data["transaction"] = fields(
                    verifier.verify_and_decode_signed_transaction(data["signedTransactionInfo"]))
            if data.get("signedRenewalInfo"):
                data["renewal"] = fields(
                    verifier.verify_and_decode_renewal_info(data["signedRenewalInfo"]))
        return entry
    if "transaction" in item:
        return fields(verifier.verify_and_decode_signed_transaction(item["transaction"]))
    if "renewal" in item:
        return fields(verifier.verify_and_decode_renewal_info(item["renewal"]))
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
        entry = {"error": error.status.name}
        item = json.loads(line)
        if "signedPayload" in item and error.status.name == "INVALID_ENVIRONMENT":
            # The library reads an external purchase token's environment from its id (Sandbox
            # or Production only): what it decoded before refusing, to check the fields.
            payload = verifier._decode_signed_object(item["signedPayload"])
            entry["decoded"] = fields(
                _get_cattrs_converter(ResponseBodyV2DecodedPayload).structure(
                    payload, ResponseBodyV2DecodedPayload))
            add_unmodeled_token_fields(entry["decoded"], payload_of(item["signedPayload"]))
        results.append(entry)
print(json.dumps(results))
