#!/usr/bin/env python3
"""A validator with one classic bug (TEST FIXTURE): it checks signature, chain and bundle id properly, but reads the
bundle id from the FIRST (or LAST) type-2 attribute and ignores every finding.

Usage: duplicate_bundle_id.py first|last RCPT ROOT EXPECTED_BUNDLE_ID RECEIPT. Exit 0 means "accepted".
"""
import json
import subprocess
import sys

which, rcpt, root, expected, receipt = sys.argv[1:6]
dump = subprocess.run([rcpt, "dump", "--format", "json", "--root", root, receipt], capture_output=True)
if dump.returncode != 0:
    sys.exit(1)
document = json.loads(dump.stdout)
verification = document.get("verification") or {}
if verification.get("signature") != "valid" or verification.get("chain") != "valid":
    sys.exit(1)
bundles = [a for a in document.get("attributes", []) if a.get("type") == 2]
chosen = (bundles[0] if which == "first" else bundles[-1]) if bundles else None
sys.exit(0 if chosen and chosen.get("value") == expected else 1)
