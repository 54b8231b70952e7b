#!/usr/bin/env python3
"""A deliberately naive JWS validator (TEST FIXTURE) with the classic faults: it follows the header's alg (so "none"
needs no signature), verifies the signature with the x5c leaf's key but never checks the chain or Apple's markers,
and reads claims with json.loads (the last duplicate wins). Standard library and the openssl CLI only.

Usage: naive_jws.py EXPECTED_BUNDLE_ID TOKEN_FILE. Exit 0 means "accepted".
"""
import base64
import json
import os
import subprocess
import sys
import tempfile


def b64url(part):
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def der_integer(value):
    value = value.lstrip(b"\0") or b"\0"
    if value[0] & 0x80:
        value = b"\0" + value
    return b"\x02" + bytes([len(value)]) + value


expected, path = sys.argv[1:3]
try:
    token = open(path).read().strip()
    header_part, payload_part, signature_part = token.split(".")
    header = json.loads(b64url(header_part))
    payload = json.loads(b64url(payload_part))
except Exception:
    sys.exit(1)

if header.get("alg") != "none":
    signature = b64url(signature_part)
    if len(signature) != 64 or not header.get("x5c"):
        sys.exit(1)
    der = der_integer(signature[:32]) + der_integer(signature[32:])
    with tempfile.TemporaryDirectory() as scratch:
        files = {name: os.path.join(scratch, name) for name in ["leaf.der", "key.pem", "sig.der", "input"]}
        open(files["leaf.der"], "wb").write(base64.b64decode(header["x5c"][0]))
        open(files["sig.der"], "wb").write(b"\x30" + bytes([len(der)]) + der)
        open(files["input"], "wb").write((header_part + "." + payload_part).encode())
        key = subprocess.run(["openssl", "x509", "-inform", "DER", "-in", files["leaf.der"], "-pubkey", "-noout"],
                             capture_output=True)
        open(files["key.pem"], "wb").write(key.stdout)
        check = subprocess.run(["openssl", "dgst", "-sha256", "-verify", files["key.pem"], "-signature",
                                files["sig.der"], files["input"]], capture_output=True)
        if check.returncode != 0:
            sys.exit(1)

bundle = payload.get("bundleId") or (payload.get("data") or {}).get("bundleId")
sys.exit(0 if bundle == expected else 1)
