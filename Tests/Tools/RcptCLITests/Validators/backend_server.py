#!/usr/bin/env python3
"""Small backends over HTTP, as published ones are written (TEST FIXTURE: `conformance --target` and
`fuzz-validator --target` are judged against them). Python's standard library only (http.server), plus Apple's
app-store-server-library for the careful webhook.

Usage: backend_server.py MODE [ARGUMENTS]
  webhook-decode-only BUNDLE_ID
      An App Store Server Notifications V2 webhook that decodes the signedPayload's payload without verifying the
      signature (the flaw this tool exists to find): 200 when its data.bundleId is BUNDLE_ID, else 400.
  webhook-apple ROOT BUNDLE_ID ENVIRONMENT APP_APPLE_ID
      The same webhook verifying with Apple's library (Validators/apple_verifier.py's configuration): 200 when
      verify_and_decode_notification (and the tokens it carries) succeed, else 400.
  webhook-fragile BUNDLE_ID
      webhook-decode-only without its error handling: a body it cannot decode raises, and the server answers 500.
  purchase-bundle-only BUNDLE_ID
      A verifyReceipt-style purchase API that answers 200 {"status": 0} when the posted receipt-data's bytes contain
      BUNDLE_ID, else 200 {"status": 21010}: it checks only the bundle id.
  purchase-rcpt COMMAND
      The same API done carefully: a body naming a member twice is refused (readers disagree on which copy counts),
      and the receipt is judged by `rcpt verify`: COMMAND with {} replaced by a file holding the decoded receipt;
      exit 0 is {"status": 0}, anything else {"status": 21002}.
  purchase-via-apple VERIFY_BASE BUNDLE_ID
      A purchase API that asks Apple (VERIFY_BASE/verifyReceipt, then VERIFY_BASE/sandbox/verifyReceipt on 21007)
      and grants (200) only a status 0 for BUNDLE_ID with a purchase, and for a subscription one that has not
      expired (latest_receipt_info before in_app); 503 when Apple cannot answer, 403 for any other answer.
  purchase-via-apple-cached VERIFY_BASE BUNDLE_ID
      purchase-via-apple remembering each receipt-data it granted: the same receipt is granted again without asking
      Apple (a cache many backends keep; it says nothing of how they handle Apple's other answers).
  purchase-via-apple-cached-refusals VERIFY_BASE BUNDLE_ID
      purchase-via-apple remembering each receipt-data it refused: the same receipt is refused again without asking
      Apple (a cache that also locks a paying customer out after an outage).
  purchase-via-apple-status-only VERIFY_BASE
      The same API as often written: grants whenever the status is 0 or 21007 (a sandbox receipt "is valid too"),
      at the production endpoint only, and reads the answer without guarding it (non-JSON raises: a 500).
  hang
      Prints "REQUEST" for each POST and never answers it.
  redirect
      Answers every POST with 302 to /ok, where a GET is answered 200: a client that follows redirects turns every
      answer into an acceptance.
Prints "PORT <n>" once listening on 127.0.0.1 (an ephemeral port), then serves until killed or until its standard
input closes (so a test that dies leaves no server behind).
"""
import base64
import binascii
import gzip
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def b64url_json(part):
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def unique_members(pairs):
    """A JSON object whose names are each given once, else ValueError."""
    names = [name for name, _ in pairs]
    if len(set(names)) != len(names):
        raise ValueError("a member named twice")
    return dict(pairs)


def decode_only(bundle_id, body):
    token = json.loads(body)["signedPayload"]
    payload = b64url_json(token.split(".")[1])
    return 200 if payload["data"]["bundleId"] == bundle_id else 400


def ask_apple(url, body):
    """The body Apple's endpoint at `url` answers to `body`; raises on a transport failure or an HTTP error."""
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.read()


def via_apple(base, bundle_id, body):
    """A careful purchase check through verifyReceipt: (HTTP status, answer)."""
    try:
        receipt_data = json.loads(body)["receipt-data"]
    except (ValueError, KeyError, TypeError):
        return 400, b'{"error": "receipt-data"}'
    request = json.dumps({"receipt-data": receipt_data}).encode()
    try:
        answer = json.loads(ask_apple(base + "/verifyReceipt", request))
        if answer.get("status") == 21007:
            answer = json.loads(ask_apple(base + "/sandbox/verifyReceipt", request))
    except (OSError, ValueError):
        return 503, b'{"error": "Apple could not be asked; try again"}'
    if not isinstance(answer, dict) or not isinstance(answer.get("status"), int):
        return 503, b'{"error": "Apple answered something else"}'
    status = answer["status"]
    if status in (21005, 21009) or 21100 <= status <= 21199:
        return 503, b'{"error": "Apple is unavailable; try again"}'
    receipt = answer.get("receipt")
    if status != 0 or not isinstance(receipt, dict) or receipt.get("bundle_id") != bundle_id:
        return 403, json.dumps({"status": status}).encode()
    purchases = answer.get("latest_receipt_info") or receipt.get("in_app") or []
    now = time.time() * 1000
    subscriptions = [p for p in purchases if "expires_date_ms" in p]
    if subscriptions:
        granted = any(int(p["expires_date_ms"]) > now for p in subscriptions)
    else:
        granted = bool(purchases)
    return (200 if granted else 403), b""


def make_handler(mode, arguments):
    verifier = None
    if mode == "webhook-apple":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import apple_verifier  # noqa: E402 (beside this file)
        verifier = apple_verifier.verifier(*arguments[:4])

    granted = set()  # purchase-via-apple-cached: the receipt-data granted before
    refused = set()  # purchase-via-apple-cached-refusals: the receipt-data refused before

    def judge(body):
        """(status, answer) for a request body."""
        if mode == "webhook-decode-only":
            try:
                return decode_only(arguments[0], body), b""
            except Exception:  # a careful server refuses what it cannot read
                return 400, b""
        if mode == "webhook-fragile":
            return decode_only(arguments[0], body), b""  # raises on what it cannot read: a 500
        if mode == "webhook-apple":
            import apple_verifier
            try:
                apple_verifier.verify_notification(verifier, json.loads(body)["signedPayload"])
                return 200, b""
            except Exception as error:
                return 400, type(error).__name__.encode()
        if mode == "purchase-bundle-only":
            try:
                receipt = base64.b64decode(json.loads(body)["receipt-data"])
            except (ValueError, KeyError, TypeError, binascii.Error):
                return 400, b'{"status": 21002}'
            return 200, json.dumps({"status": 0 if arguments[0].encode() in receipt else 21010}).encode()
        if mode == "purchase-rcpt":
            try:
                receipt = base64.b64decode(json.loads(body, object_pairs_hook=unique_members)["receipt-data"])
            except (ValueError, KeyError, TypeError, binascii.Error):
                return 400, b'{"status": 21002}'
            with tempfile.NamedTemporaryFile(suffix=".receipt") as handle:
                handle.write(receipt)
                handle.flush()
                quoted = "'" + handle.name.replace("'", "'\\''") + "'"
                status = subprocess.run(arguments[0].replace("{}", quoted), shell=True,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            return 200, json.dumps({"status": 0 if status == 0 else 21002}).encode()
        if mode == "purchase-via-apple":
            return via_apple(arguments[0], arguments[1], body)
        if mode in ("purchase-via-apple-cached", "purchase-via-apple-cached-refusals"):
            # The decisions it remembers: its grants, or its refusals.
            remembered, kept = (granted, 200) if mode == "purchase-via-apple-cached" else (refused, 403)
            try:
                receipt_data = json.loads(body)["receipt-data"]
            except (ValueError, KeyError, TypeError):
                return 400, b'{"error": "receipt-data"}'
            if receipt_data in remembered:
                return kept, b""
            status, answer = via_apple(arguments[0], arguments[1], body)
            if (status == 200) == (kept == 200):
                remembered.add(receipt_data)
            return status, answer
        if mode == "purchase-via-apple-status-only":
            answer = json.loads(ask_apple(arguments[0] + "/verifyReceipt", body))
            return (200 if answer["status"] in (0, 21007) else 403), b""
        raise SystemExit("unknown mode " + mode)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200 if self.path == "/ok" else 404)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_POST(self):
            if mode == "close-in-headers":  # the connection ends in the middle of the headers
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Len")
                self.wfile.flush()
                self.close_connection = True
                return
            if mode == "close-in-body":  # an HTTP 200 whose body ends 95 bytes before its Content-Length says
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhello")
                self.wfile.flush()
                self.close_connection = True
                return
            if mode == "echo-authorization":  # the Authorization header the request carried, as the body
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                answer = (self.headers.get("Authorization") or "none").encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
                return
            if mode == "gzip":  # a compressed answer nobody asked for: 64 MiB of zeros in 64 KiB
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                answer = gzip.compress(b"\0" * (64 << 20), 1)
                self.send_response(200)
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
                return
            if mode == "hang":
                print("REQUEST", flush=True)
                threading.Event().wait()
            if mode == "redirect":
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.send_response(302)
                self.send_header("Location", "/ok")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(min(length, 8 << 20))
            try:
                status, answer = judge(body)
            except Exception as error:  # what an unguarded framework does: a 500
                status, answer = 500, ("Internal Server Error: " + type(error).__name__).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *_):
            pass

    return Handler


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(sys.argv[1], sys.argv[2:]))
    print("PORT %d" % server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()
    os._exit(0)


if __name__ == "__main__":
    main()
