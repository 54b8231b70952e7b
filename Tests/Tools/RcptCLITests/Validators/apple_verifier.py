#!/usr/bin/env python3
"""Apple's own JWS verifier as a server uses it (TEST FIXTURE: the calibration of rcpt's verdicts).

Apple's app-store-server-library (PyPI, pinned in scripts/bootstrap.sh), used as its documentation says: one
SignedDataVerifier configured with the trusted roots, the app's bundle id, the environment and (for Production)
the app's Apple id; a notification body's signedPayload verified with verify_and_decode_notification, then each
token it carries with the method for that token's kind; an API response's tokens each with the method for the
position they sit in; a bare token with the method for the kind the server expects there (KIND).

Usage: apple_verifier.py ROOT BUNDLE_ID ENVIRONMENT APP_APPLE_ID KIND FILE
       apple_verifier.py ROOT BUNDLE_ID ENVIRONMENT APP_APPLE_ID KIND --stdin
  ROOT: the trusted root, PEM or DER; ENVIRONMENT: Sandbox or Production; APP_APPLE_ID: digits, or - for none;
  KIND: transaction, renewal, notification or app-transaction (what a bare token in FILE must be).
With FILE: exit 0 accepted; exit 1 rejected, with Apple's reason on standard error. With --stdin (rcpt's --batch):
one path per line on standard input, one line per path on standard output, "accepted" or "rejected: REASON", the
verifier configured once. A server catches what the library raises and refuses the request, so any exception from
it is a rejection too (its type is printed).
"""
import json
import ssl
import sys

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException


def verifier(root_path, bundle_id, environment, app_apple_id):
    with open(root_path, "rb") as handle:
        root = handle.read()
    if root.lstrip().startswith(b"-----BEGIN"):
        root = ssl.PEM_cert_to_DER_cert(root.decode("ascii"))
    return SignedDataVerifier([root], False, Environment(environment), bundle_id,
                              None if app_apple_id == "-" else int(app_apple_id))


def verify_notification(v, signed_payload):
    notification = v.verify_and_decode_notification(signed_payload)
    if notification.data:
        if notification.data.signedTransactionInfo is not None:
            v.verify_and_decode_signed_transaction(notification.data.signedTransactionInfo)
        if notification.data.signedRenewalInfo is not None:
            v.verify_and_decode_renewal_info(notification.data.signedRenewalInfo)


def verify_token(v, kind, token):
    if kind == "transaction":
        v.verify_and_decode_signed_transaction(token)
    elif kind == "renewal":
        v.verify_and_decode_renewal_info(token)
    elif kind == "notification":
        verify_notification(v, token)
    elif kind == "app-transaction":
        v.verify_and_decode_app_transaction(token)
    else:
        raise SystemExit("unknown kind " + kind)


def strings(value):
    """The value if it is a list of strings (what an API response's token lists are), else a refusal."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("not a list of tokens")
    return value


def verify_document(v, document):
    """A JSON document: a notification body or an App Store Server API response, by the members it has."""
    if not isinstance(document, dict):
        raise ValueError("not a JSON object")
    if "signedPayload" in document:
        verify_notification(v, document["signedPayload"])
    elif "signedTransactions" in document:
        for token in strings(document["signedTransactions"]):
            v.verify_and_decode_signed_transaction(token)
    elif "signedTransactionInfo" in document or "signedRenewalInfo" in document:
        if "signedTransactionInfo" in document:
            v.verify_and_decode_signed_transaction(document["signedTransactionInfo"])
        if "signedRenewalInfo" in document:
            v.verify_and_decode_renewal_info(document["signedRenewalInfo"])
    elif "data" in document and isinstance(document["data"], list):
        for group in document["data"]:
            for item in group.get("lastTransactions", []):
                v.verify_and_decode_signed_transaction(item["signedTransactionInfo"])
                v.verify_and_decode_renewal_info(item["signedRenewalInfo"])
    else:
        raise ValueError("no token where Apple's documents carry one")


def judge(v, kind, path):
    """None when Apple's verifier accepts the file, else its reason for refusing it."""
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        text = data.decode("utf-8")
        if text.lstrip().startswith("{") or text.lstrip().startswith("["):
            verify_document(v, json.loads(text))
        else:
            verify_token(v, kind, text[:-1] if text.endswith("\n") else text)
    except VerificationException as error:
        return str(error.status)
    except Exception as error:  # noqa: BLE001 - a server refuses what the library cannot read
        return type(error).__name__ + " " + " ".join(str(error).split())
    return None


def main():
    root_path, bundle_id, environment, app_apple_id, kind, path = sys.argv[1:7]
    v = verifier(root_path, bundle_id, environment, app_apple_id)
    if path != "--stdin":
        reason = judge(v, kind, path)
        if reason is not None:
            print("rejected:", reason, file=sys.stderr)
            sys.exit(1)
        sys.exit(0)
    for line in sys.stdin:
        reason = judge(v, kind, line.rstrip("\n"))
        print("accepted" if reason is None else "rejected: " + reason, flush=True)


if __name__ == "__main__":
    main()
