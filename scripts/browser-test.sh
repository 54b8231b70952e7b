#!/usr/bin/env bash
# The report page's tests in a real browser (Tests/Browser/report_test.py): Debian's chromium, driven by Python
# Playwright from PyPI pointed at that binary (no browser is ever downloaded). Installs both when missing, builds
# rcpt, and writes the screenshots to out/screenshots (CI keeps them as artifacts). scripts/test.sh runs this after
# the main suite, which needs no browser. Usage: scripts/browser-test.sh [unittest arguments, e.g. a test name]
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
if ! command -v chromium >/dev/null 2>&1; then
    echo "browser-test: installing Debian's chromium" >&2
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >&2
fi
if ! python3 -c 'import playwright' >/dev/null 2>&1; then
    echo "browser-test: installing Playwright for Python (PyPI), to drive that chromium" >&2
    python3 -m pip install -q playwright >&2
fi

# RCPT: the rcpt to test (scripts/test.sh gives the release binary); else the debug build, built now.
if [ -z "${RCPT:-}" ]; then
    swift build --product rcpt >&2
    RCPT="$(swift build --show-bin-path)/rcpt"
fi
export RCPT
export CHROMIUM="${CHROMIUM:-$(command -v chromium)}"
export SCREENSHOTS="${SCREENSHOTS:-$PWD/out/screenshots}"
rm -rf "$SCREENSHOTS"
python3 Tests/Browser/report_test.py "$@"
echo "browser-test: screenshots in $SCREENSHOTS" >&2
