#!/usr/bin/env python3
"""The report page in a real browser: Debian's chromium, driven by Python Playwright (PyPI) at that binary.

Run by scripts/browser-test.sh (which installs both when missing), after the main suite. RCPT names the rcpt binary;
SCREENSHOTS the folder the screenshots go to (CI keeps it as an artifact; screenshots are never compared pixel by
pixel). Each test opens reports rcpt writes and checks the page against `rcpt dump --format json` of the same input:
the highlighted byte range of every attribute and claim, the node a selected byte selects, the findings' marks, the
copies, the 100 000-record report, and that hostile text stays text.
"""
import base64
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
RCPT = os.environ.get("RCPT") or str(ROOT / ".build" / "debug" / "rcpt")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(os.environ.get("SCREENSHOTS", ROOT / "out" / "screenshots"))
WORK = Path(tempfile.mkdtemp(prefix="rcpt-browser-"))

RECEIPTS = sorted((ROOT / "Corpus" / "receipts").glob("*.receipt"))
# The most attributes of one receipt whose selection is probed one by one (check_receipt).
PROBED = 400
JWS = sorted(p for p in (ROOT / "Corpus" / "jws").iterdir() if p.suffix in (".jws", ".json"))


def rcpt(*args, check=True):
    result = subprocess.run([RCPT, *map(str, args)], capture_output=True)
    if check and result.returncode not in (0, 1):
        raise AssertionError(f"rcpt {' '.join(map(str, args))} exited {result.returncode}: {result.stderr.decode()}")
    return result


def report(source, name, *args):
    out = WORK / (name + ".html")
    result = rcpt("report", source, "-o", out, *args, check=False)
    assert out.exists(), f"no report for {source}: {result.stderr.decode()}"
    return out, result.returncode


def verdict_word(source):
    """The word `rcpt verify` opens its text with: the page must show the same one."""
    return rcpt("verify", source, check=False).stdout.decode().split(" ", 1)[0].strip()


def dump(source):
    return json.loads(rcpt("dump", "--format", "json", source).stdout)


INSTANT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def same_message(page_message, dump_message):
    """Messages equal but for the instants in them: a document with no time of its own is judged at the second
    each process ran (`chain-invalid … at 2026-11-30T02:49:52Z`), and dump and report run one after the other."""
    return INSTANT.sub("<instant>", page_message) == INSTANT.sub("<instant>", dump_message)


class Page:
    """One report open in the browser, with everything that would show an attack: dialogs, console errors, page
    errors and requests other than the page itself."""

    def __init__(self, browser, path):
        self.path = path
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000})
        self.page = self.context.new_page()
        self.problems = []
        self.page.on("dialog", lambda d: (self.problems.append("dialog: " + d.message), d.dismiss()))
        self.page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("request", lambda r: None if r.url == path.as_uri() else self.problems.append("request: " + r.url))
        self.page.goto(path.as_uri())
        self.page.wait_for_selector("html[data-ready='1']", timeout=120000)
        self.data = self.page.evaluate("JSON.parse(document.getElementById('rcpt-data').textContent)")

    def close(self):
        if self.context is not None:
            self.context.close()
            self.context = None

    def shot(self, name):
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / (name + ".png")), full_page=True)

    def selection(self):
        return self.page.evaluate("""() => {
            const h = document.getElementById('hex').dataset, d = document.getElementById('details').dataset;
            return {space: +h.space, start: +h.start, end: +h.end, node: +d.node, label: d.label};
        }""")

    def space(self, index):
        if self.page.eval_on_selector("#space", "e => e.value") != str(index):
            self.page.select_option("#space", str(index))

    def goto(self, space, offset):
        self.space(space)
        self.page.fill("#goto", str(offset))
        self.page.press("#goto", "Enter")
        return self.selection()

    def probe(self, items):
        """For each (space, offset, then-offset): the page's own go-to box selects `offset` (Enter), the selection is
        read with the class of the byte's cell; then a click on the cell at `then-offset`, when given, and the
        selection again. One round trip for a whole file; a few tests drive the same with real keys and clicks."""
        return self.page.evaluate("""(items) => {
            const read = (o) => {
                const h = document.getElementById('hex').dataset, d = document.getElementById('details').dataset;
                const c = document.querySelector('#hex .b[data-o="' + o + '"]');
                return {space: +h.space, start: +h.start, end: +h.end, node: +d.node, label: d.label, cls: c ? c.className : null};
            };
            return items.map(([space, offset, then]) => {
                const s = document.getElementById('space');
                if (s.value !== String(space)) { s.value = String(space); s.dispatchEvent(new Event('change')); }
                const g = document.getElementById('goto');
                g.value = String(offset);
                g.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter'}));
                const first = read(offset);
                if (then === null || then === undefined) return [first, null];
                const c = document.querySelector('#hex .b[data-o="' + then + '"]');
                if (!c) return [first, {missing: then}];
                c.click();
                return [first, read(then)];
            });
        }""", items)

    def cell_classes(self, offset):
        return self.page.evaluate(f"""() => {{
            const c = document.querySelector('#hex .b[data-o="{offset}"]');
            return c ? c.className : null;
        }}""")


class ReportTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.playwright = sync_playwright().start()
        cls.browser = cls.playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        cls.playwright.stop()

    def open(self, path):
        page = Page(self.browser, path)
        self.addCleanup(page.close)
        return page

    def assertClean(self, page):
        self.assertEqual(page.problems, [], f"{page.path.name}: the page did something it must not")

    # ---- receipts ----

    def check_receipt(self, source, screenshot=None):
        expected = dump(source)
        path, _ = report(source, source.stem)
        page = self.open(path)
        self.assertEqual(page.data["verdict"]["valid"], expected["valid"])
        verdict = page.page.inner_text("#verdict")
        self.assertEqual(verdict, verdict_word(source))
        attributes = []
        for attribute in expected["attributes"] or []:
            attributes.append(attribute)
            attributes += attribute.get("records") or []
        # Every attribute up to PROBED; beyond, an even sample of that many (first and last included): each probe
        # re-renders the views, and the legacy receipt's 3 761 attributes took 90 of CI's seconds for one code path.
        if len(attributes) > PROBED:
            step = -(-len(attributes) // PROBED)
            attributes = attributes[::step] + ([attributes[-1]] if (len(attributes) - 1) % step else [])
        results = page.probe([[0, a["offset"], a["valueOffset"]] for a in attributes])
        for attribute, (got, value) in zip(attributes, results):
            with self.subTest(file=source.name, attribute=attribute["name"], offset=attribute["offset"]):
                self.assertEqual((got["space"], got["start"], got["end"]),
                                 (0, attribute["offset"], attribute["offset"] + attribute["length"]))
                self.assertTrue(got["label"].startswith(attribute["name"]), got["label"])
                self.assertIn("hdr", got["cls"] or "")
                # Selecting the value's first byte selects the value: the offset dump gives as valueOffset.
                self.assertEqual(value["start"], attribute["valueOffset"])
                self.assertLessEqual(value["end"], attribute["offset"] + attribute["length"])
                self.assertNotEqual(value["node"], got["node"])
        if attributes:
            # The same with real keys and a real click, for one attribute.
            attribute = attributes[len(attributes) // 2]
            got = page.goto(0, attribute["offset"])
            self.assertEqual((got["start"], got["end"]), (attribute["offset"], attribute["offset"] + attribute["length"]))
            page.page.click(f'#hex .b[data-o="{attribute["valueOffset"]}"]')
            self.assertEqual(page.selection()["start"], attribute["valueOffset"])
        for index, certificate in enumerate(expected["certificates"] or []):
            got = page.goto(0, certificate["offset"])
            self.assertEqual((got["start"], got["end"]), (certificate["offset"], certificate["offset"] + certificate["length"]))
            self.assertTrue(got["label"].startswith(f"certificate [{index}]"), got["label"])
        self.check_findings(page, [(f, 0, f.get("offset")) for f in expected["findings"]])
        self.assertClean(page)
        if screenshot:
            page.shot(screenshot)
        return page

    def check_findings(self, page, expected):
        """Every finding listed, and each one with an offset marked there once it is selected."""
        listed = page.page.eval_on_selector_all("#findings .finding", "items => items.length")
        self.assertGreaterEqual(listed, len(expected))
        for finding, space, offset in expected:
            if offset is None:
                continue
            # How the classifier found the document is told in the input's text, which the page does not place;
            # an error or a warning is always placed.
            # A document evaluated "now" names the second it was judged in, which dump and report each read.
            listed = [f for f in page.data["findings"]
                      if f["code"] == finding["code"] and same_message(f["message"], finding["message"])]
            self.assertTrue(listed, f"{finding['code']} is not listed")
            if all(f["space"] is None for f in listed):
                self.assertEqual(finding["severity"], "info", f"{finding['code']} is not placed on the bytes")
                continue
            matches = [f for f in page.data["findings"]
                       if f["code"] == finding["code"] and f["space"] == space and f["offset"] == offset]
            self.assertTrue(matches, f"{finding['code']} at {offset} in space {space} is not on the page")
            # The finding's "at" link selects its own bytes (the item itself goes on to the node they decode to).
            page.page.click(f'#findings .finding[data-finding="{page.data["findings"].index(matches[0])}"] [data-where]')
            self.assertEqual(page.selection()["space"], space)
            self.assertIn("mark-" + finding["severity"], page.cell_classes(offset) or "",
                          f"{finding['code']} is not marked at {offset}")

    def test_real_receipts(self):
        """Every attribute of every real receipt (an even sample of PROBED in a larger one): its bytes highlighted
        exactly as dump places them."""
        for source in RECEIPTS:
            with self.subTest(file=source.name):
                self.check_receipt(source, screenshot="receipt-" + source.stem)

    def test_malformed_receipts_show_their_error(self):
        """A malformed input is a finding to show, never a broken page."""
        malformed = sorted((ROOT / "Corpus" / "receipts" / "malformed").glob("*"))
        inputs = [p for p in malformed if p.is_file() and p.suffix != ".md"][:12]
        empty = WORK / "empty.receipt"
        empty.write_bytes(b"")
        noise = WORK / "noise.bin"
        noise.write_bytes(bytes((i * 7919 + 13) % 256 for i in range(4096)))
        truncated = WORK / "truncated.receipt"
        truncated.write_bytes(RECEIPTS[0].read_bytes()[:1500])
        for source in inputs + [empty, noise, truncated]:
            with self.subTest(file=source.name):
                path, code = report(source, "bad-" + source.stem)
                expected = dump(source) if code == 0 else json.loads(rcpt("dump", "--format", "json", source, check=False).stdout or b"{}")
                page = self.open(path)
                self.assertEqual(page.page.inner_text("#verdict"), verdict_word(source))
                if expected.get("error"):
                    self.assertIn(expected["error"]["code"], page.page.inner_text("#codes"))
                    # The error is listed first among the findings.
                    first = page.page.inner_text("#findings .finding")
                    self.assertIn(expected["error"]["code"], first)
                self.assertClean(page)
        page.shot("receipt-truncated")
        # A cut receipt shows the structure as far as it goes.
        page = self.open(report(truncated, "bad-truncated-again")[0])
        self.assertGreater(page.page.eval_on_selector_all("#tree .row", "rows => rows.length"), 5)
        self.assertClean(page)

    def test_fuzz_corpus_pages_draw(self):
        """Inputs the fuzzers keep (damaged receipts, tokens, BER, JSON): every page draws, with no page error."""
        files = sorted(p for folder in ("Corpus/fuzz", "Corpus/regressions") for p in (ROOT / folder).rglob("*")
                       if p.is_file() and p.stat().st_size < 200_000 and p.suffix not in (".dict", ".options", ".md", ".txt", ".key", ".pem"))
        self.assertGreater(len(files), 100)
        for source in files[:: max(1, len(files) // 40)]:
            with self.subTest(file=str(source.relative_to(ROOT))):
                path, code = report(source, "fuzz-" + source.parent.name + "-" + source.name)
                self.assertIn(code, (0, 2))
                page = self.open(path)
                self.assertEqual(page.page.inner_text("#verdict"), verdict_word(source))
                self.assertClean(page)
                page.close()

    def test_copy_as_hex_base64_and_json(self):
        source = ROOT / "Corpus" / "receipts" / "kvitto-sandboxReceipt.receipt"
        expected = dump(source)
        raw = source.read_bytes()
        page = self.open(report(source, "copy")[0])
        attribute = next(a for a in expected["attributes"] if a["name"] == "bundle_id")
        page.goto(0, attribute["offset"])
        piece = raw[attribute["offset"]:attribute["offset"] + attribute["length"]]
        page.page.click("#copy-hex")
        self.assertEqual(page.page.input_value("#copied"), piece.hex())
        page.page.click("#copy-base64")
        self.assertEqual(page.page.input_value("#copied"), base64.b64encode(piece).decode())
        page.page.click("#copy-json")
        copied = json.loads(page.page.input_value("#copied"))
        self.assertEqual((copied["offset"], copied["length"]), (attribute["offset"], attribute["length"]))
        self.assertIn(attribute["value"], json.dumps(copied))
        self.assertClean(page)

    def test_tree_rows_select_their_bytes(self):
        """A click on a row of the tree highlights the bytes the row names; a click on a byte selects its row."""
        source = ROOT / "Corpus" / "receipts" / "tpinappreceipt-sandbox-g5.receipt"
        page = self.open(report(source, "tree")[0])
        count = len(page.page.query_selector_all("#tree .row"))
        self.assertGreater(count, 10)
        for index in range(min(count, 25)):
            # Rows are drawn anew as the view moves: find the row by its number each time.
            row = page.page.query_selector(f'#tree .row[data-row="{index}"]')
            self.assertIsNotNone(row, index)
            text = row.inner_text()
            at = re.search(r"@(\d+)\+(\d+)", text)
            row.query_selector(".label").click()
            got = page.selection()
            self.assertEqual((got["start"], got["end"]), (int(at.group(1)), int(at.group(1)) + int(at.group(2))), text)
            selected = page.page.query_selector("#tree .row.selected")
            self.assertIsNotNone(selected)
            self.assertEqual(selected.get_attribute("data-node"), str(got["node"]))
        self.assertClean(page)

    def test_keys_and_find(self):
        """The tree answers the keyboard, and the find box goes to the record that holds a transaction id."""
        source = ROOT / "Corpus" / "receipts" / "kvitto-sandboxReceipt.receipt"
        expected = dump(source)
        page = self.open(report(source, "keys")[0])
        values = [str(a["value"]) for top in expected["attributes"] for a in (top.get("records") or [])]
        transaction = next(a for top in expected["attributes"] for a in (top.get("records") or [])
                           if a["name"] == "transaction_id" and values.count(str(a["value"])) == 1)
        page.page.fill("#find", transaction["value"])
        page.page.press("#find", "Enter")
        found = page.selection()
        self.assertEqual((found["start"], found["end"]),
                         (transaction["offset"], transaction["offset"] + transaction["length"]))
        page.page.fill("#find", "no such text anywhere")
        page.page.press("#find", "Enter")
        self.assertIn("no node", page.page.inner_text("#source"))
        self.assertEqual(page.selection()["start"], transaction["offset"])
        # Left goes to the record, down and up come back, right opens.
        page.page.focus("#tree")
        page.page.keyboard.press("ArrowLeft")
        self.assertEqual(page.selection()["label"], "in-app record")
        page.page.keyboard.press("ArrowDown")
        below = page.selection()
        page.page.keyboard.press("ArrowUp")
        self.assertEqual(page.selection()["label"], "in-app record")
        self.assertNotEqual(below["node"], page.selection()["node"])
        self.assertClean(page)

    # ---- JWS ----

    def test_real_jws(self):
        """Every claim of every real JWS (nested ones too): the node at its offset in the decoded payload starts
        there and is named by it; a base64url character selects the node of the byte it carries."""
        for source in JWS:
            with self.subTest(file=source.name):
                expected = dump(source)
                path, _ = report(source, "jws-" + source.stem)
                page = self.open(path)
                self.assertEqual(page.data["verdict"]["valid"], expected["valid"])
                places = page.data["tokens"]
                flat = []
                pending = list(reversed(expected["tokens"]))
                while pending:
                    token = pending.pop()
                    flat.append(token)
                    pending += list(reversed(token["nested"]))
                self.assertEqual([p["path"] for p in places], [t["path"] for t in flat])
                findings = [(f, 0, f.get("offset")) for f in expected["findings"]]
                for token, place in zip(flat, places):
                    claims = token["payload"]["claims"] or []
                    results = page.probe([[place["payloadSpace"], c["offset"], None] for c in claims])
                    for claim, (got, _) in zip(claims, results):
                        with self.subTest(token=token["path"], claim=claim["path"]):
                            self.assertEqual((got["space"], got["start"]), (place["payloadSpace"], claim["offset"]))
                            last = re.split(r"\.", claim["path"])[-1]
                            last = re.search(r"(\[\d+\])$", last).group(1) if last.endswith("]") else last
                            self.assertTrue(got["label"].startswith(last), (got["label"], claim["path"]))
                    members = token["header"]["members"] or []
                    results = page.probe([[place["headerSpace"], m["offset"], None] for m in members])
                    for member, (got, _) in zip(members, results):
                        self.assertEqual((got["space"], got["start"]), (place["headerSpace"], member["offset"]))
                    # A token's offsets (parts, findings) are in its text: from where it starts in the space that
                    # holds it, unless they count from the input's start (a compact token is the input itself).
                    absolute = token["parts"]["header"]["offset"] == token["offset"]
                    base = place["offset"] - (token["offset"] if absolute else 0)
                    findings += [(f, place["holder"], None if f.get("offset") is None else base + f["offset"])
                                 for f in token["findings"]]
                    # A character of the payload's base64url selects the node of the byte it carries.
                    start = base + token["parts"]["payload"]["offset"]
                    page.goto(place["holder"], start + 8)
                    got = page.selection()
                    self.assertEqual(got["space"], place["payloadSpace"])
                    self.assertLessEqual(got["start"], 6)
                self.check_findings(page, findings)
                self.assertClean(page)
                page.shot("jws-" + source.stem)

    def test_timeline_marks_and_trust_line(self):
        """A mark on the timeline selects the statement behind it: a receipt's in-app record, a token's date claim
        in its decoded payload. The trust line names the root and where the evaluation time came from."""
        receipt = self.open(report(ROOT / "Corpus" / "receipts" / "kvitto-sandboxReceipt.receipt", "timeline-receipt")[0])
        self.assertIn("Apple's root", receipt.page.inner_text("#trust"))
        self.assertIn("creation date", receipt.page.inner_text("#trust"))
        # Marks of one instant overlap (an expiry and the renewal it leads to): each mark's own click.
        receipt.page.dispatch_event("#timeline circle.ev >> nth=1", "click")
        self.assertEqual(receipt.selection()["label"], "in-app record")
        self.assertClean(receipt)
        notification = self.open(report(ROOT / "Corpus" / "jws" / "gopay-notif-DID_RENEW-sandbox.jws", "timeline-jws")[0])
        marks = notification.page.eval_on_selector_all("#timeline circle.ev", "m => m.length")
        self.assertGreater(marks, 0)
        for index in range(marks):
            notification.page.dispatch_event(f"#timeline circle.ev >> nth={index}", "click")
            got = notification.selection()
            self.assertRegex(got["label"], r"^(purchaseDate|expiresDate|revocationDate|renewalDate|gracePeriodExpiresDate) ")
            self.assertNotEqual(got["space"], 0)
        self.assertClean(notification)
        # A root given with --root is said to be one.
        ca = WORK / "trust-ca"
        rcpt("ca", "init", ca)
        source = WORK / "trust.receipt"
        rcpt("build", "--synthetic", "2", "--ca", ca, "-o", source)
        custom = self.open(report(source, "trust-custom", "--root", ca / "root.pem")[0])
        self.assertIn("not Apple's", custom.page.inner_text("#trust"))
        self.assertClean(custom)

    # ---- scale ----

    def test_hundred_thousand_records(self):
        """The 100 000-record synthetic receipt: the page opens, the tree lists every record, both views scroll to
        the end, and a byte near the end selects its node."""
        ca = WORK / "ca"
        rcpt("ca", "init", ca)
        source = WORK / "synthetic-100000.receipt"
        rcpt("build", "--synthetic", "100000", "--ca", ca, "-o", source)
        path, _ = report(source, "synthetic-100000")
        size = source.stat().st_size
        self.assertLess(path.stat().st_size, 2.1 * size + 200_000, "the report is over its budget")
        page = self.open(path)
        expected = json.loads(rcpt("dump", "--format", "json", source).stdout)["container"]
        payload = page.goto(0, expected["contentOffset"])
        self.assertEqual(payload["label"], "payload SET (100009 attributes)")
        page.page.eval_on_selector("#hex", "e => { e.scrollTop = e.scrollHeight; e.dispatchEvent(new Event('scroll')); }")
        last = page.page.eval_on_selector_all("#hex .b[data-o]", "cells => Math.max(...cells.map(c => +c.dataset.o))")
        self.assertEqual(last, size - 1)
        page.page.eval_on_selector("#tree", "e => { e.scrollTop = e.scrollHeight; e.dispatchEvent(new Event('scroll')); }")
        rows = page.page.eval_on_selector_all("#tree .row", "rows => rows.map(r => r.textContent)")
        self.assertTrue(any("in_app" in r or "certificate" in r or "Signer" in r for r in rows), rows[-3:])
        got = page.goto(0, size - 200)
        self.assertLessEqual(got["start"], size - 200)
        self.assertGreater(got["end"], size - 200)
        record = page.goto(0, size // 2)
        self.assertLess(record["end"] - record["start"], 2000, "a byte mid-file selects an attribute of a record")
        self.assertClean(page)
        page.shot("synthetic-100000")

    # ---- hostile text ----

    HOSTILE = [
        "<script>window.__pwned=1;alert(1)</script>",
        "javascript:alert(2)",
        "</style><style>*{display:none}</style>",
        "\u202egnp.exe\u202c RTL",
        "\u001b[31mred\u001b[0m \u0007",
        "\"><img src=x onerror=alert(3)>",
        "</script><script>alert(4)</script>",
        "{{7*7}} ${7*7} <!--",
    ]

    def hostile_ca(self):
        """A StoreKit-shaped TEST-ONLY CA whose one certificate's names are hostile."""
        ca = WORK / "evil-ca"
        rcpt("ca", "init", "--shape", "storekit", ca)
        config = WORK / "evil.cnf"
        config.write_text("[req]\nprompt=no\nutf8=yes\nstring_mask=utf8only\ndistinguished_name=dn\n[dn]\n"
                          f"CN=<script>alert(5)</script> TEST-ONLY\nO=</style><b>x</b>\u202e\nOU=javascript:alert(6)\n",
                          encoding="utf-8")
        subprocess.run(["openssl", "req", "-new", "-x509", "-key", str(ca / "leaf.key"), "-config", str(config),
                        "-days", "36500", "-out", str(ca / "leaf.pem")], check=True, capture_output=True)
        (ca / "root.pem").write_bytes((ca / "leaf.pem").read_bytes())
        return ca

    def check_hostile(self, path):
        page = self.open(path)
        text = page.page.inner_text("body")
        self.assertIsNone(page.page.evaluate("window.__pwned"))
        self.assertEqual(page.page.eval_on_selector_all("img, iframe, object, embed, a[href]", "e => e.length"), 0)
        scripts = page.page.eval_on_selector_all("script", "s => s.length")
        self.assertEqual(scripts, 2, "only the data element and the page's own script")
        # Everything drew (the style was not closed), and bidirectional and control characters show as codes.
        self.assertTrue(page.page.is_visible("#tree"))
        self.assertNotIn("\u202e", text)
        self.assertNotIn("\u001b", text)
        self.assertClean(page)
        return page, text

    def test_injection_receipt(self):
        """Bundle id, product ids, in-app strings and certificate names full of markup stay text."""
        spec = dump(ROOT / "Corpus" / "receipts" / "kvitto-sandboxReceipt.receipt")
        receipt = spec["receipt"]
        # Every text field of the receipt and of each record (dates stay dates, so the timeline is drawn too).
        text = set()
        for attribute in spec["attributes"]:
            for one in [attribute] + (attribute.get("records") or []):
                if one["asn1"] in ("UTF8String", "IA5String") and one.get("utc", "absent") == "absent":
                    text.add(one["name"])
        count = 0
        for fields in [receipt] + receipt["in_app"]:
            for key, value in list(fields.items()):
                if key in text and isinstance(value, str):
                    fields[key] = self.HOSTILE[count % len(self.HOSTILE)]
                    count += 1
        receipt["bundle_id"] = self.HOSTILE[0]
        self.assertGreater(count, 20)
        spec_path = WORK / "evil-receipt.json"
        spec_path.write_text(json.dumps(spec), encoding="utf-8")
        source = WORK / "evil.receipt"
        rcpt("build", spec_path, "--ca", self.hostile_ca(), "-o", source)
        page, text = self.check_hostile(report(source, "evil-receipt")[0])
        self.assertIn("<script>window.__pwned=1;alert(1)</script>", text)
        self.assertIn("⟨U+202E⟩", text)
        # Certificate names as OpenSSL writes them (RFC 2253 escapes), as text.
        self.assertIn("CN=\\<script\\>alert(5)\\</script\\> TEST-ONLY", text)
        self.assertIn("OU=javascript:alert(6)", text)
        page.shot("injection-receipt")

    def test_injection_jws(self):
        """Claims, claim names and nested tokens full of markup stay text."""
        ca = WORK / "evil-jws-ca"
        rcpt("ca", "init", "--shape", "jws", ca)
        # Every string claim of a real transaction, and a claim named by script.
        real = dump(ROOT / "Corpus" / "jws" / "gopay-txn-2000000004047119-sandbox.jws")
        inner = json.loads(real["tokens"][0]["payload"]["text"])
        for index, key in enumerate(k for k, v in list(inner.items()) if isinstance(v, str)):
            inner[key] = self.HOSTILE[index % len(self.HOSTILE)]
        inner["bundleId"] = self.HOSTILE[0]
        inner[self.HOSTILE[6]] = self.HOSTILE[4]
        inner_path = WORK / "evil-inner.json"
        inner_path.write_text(json.dumps(inner), encoding="utf-8")
        token = WORK / "evil-inner.jws"
        rcpt("build", "--jws", inner_path, "--ca", ca, "-o", token)
        outer = {"notificationType": self.HOSTILE[5], "notificationUUID": self.HOSTILE[7], "signedDate": 1700000000000,
                 "data": {"bundleId": self.HOSTILE[0], "environment": "Sandbox",
                          "signedTransactionInfo": token.read_text().strip()}}
        outer_path = WORK / "evil-outer.json"
        outer_path.write_text(json.dumps(outer), encoding="utf-8")
        source = WORK / "evil.jws"
        rcpt("build", "--jws", outer_path, "--ca", ca, "-o", source)
        page, text = self.check_hostile(report(source, "evil-jws")[0])
        self.assertIn("<script>window.__pwned=1;alert(1)</script>", text)
        page.shot("injection-jws")


if __name__ == "__main__":
    unittest.main(verbosity=2)
