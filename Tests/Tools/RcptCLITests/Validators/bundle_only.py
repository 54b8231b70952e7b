#!/usr/bin/env python3
"""A deliberately naive receipt validator (TEST FIXTURE): it only checks the bundle id.

Usage: bundle_only.py RCPT EXPECTED_BUNDLE_ID RECEIPT. Exit 0 means "accepted".
"""
import json
import subprocess
import sys

rcpt, expected, receipt = sys.argv[1:4]
dump = subprocess.run([rcpt, "dump", "--format", "json", receipt], capture_output=True)
if dump.returncode != 0:
    sys.exit(1)
document = json.loads(dump.stdout)
sys.exit(0 if (document.get("receipt") or {}).get("bundle_id") == expected else 1)
