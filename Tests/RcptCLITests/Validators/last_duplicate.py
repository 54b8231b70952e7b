#!/usr/bin/env python3
"""A validator with one classic bug (TEST FIXTURE): it checks signature, chain and bundle id properly, but reads the
bundle id from the LAST type-2 attribute and ignores every finding.

Usage: last_duplicate.py RCPT ROOT EXPECTED_BUNDLE_ID RECEIPT. Exit 0 means "accepted".
"""
import json
import subprocess
import sys

rcpt, root, expected, receipt = sys.argv[1:5]
dump = subprocess.run([rcpt, "dump", "--format", "json", "--root", root, receipt], capture_output=True)
if dump.returncode != 0:
    sys.exit(1)
document = json.loads(dump.stdout)
verification = document.get("verification") or {}
if verification.get("signature") != "valid" or verification.get("chain") != "valid":
    sys.exit(1)
bundles = [a for a in document.get("attributes", []) if a.get("type") == 2]
sys.exit(0 if bundles and bundles[-1].get("value") == expected else 1)
