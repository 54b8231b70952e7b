#!/usr/bin/env bash
# Runs the whole test suite from a fresh clone: installs missing system packages, builds the relocatable release
# binary (scripts/release.sh; ReleaseBinaryTests runs it with no Swift toolchain), builds, tests; then the unit tests
# of the report page's script under Node (Tests/Report/), and the page's tests in headless Chromium against that
# release binary (scripts/browser-test.sh installs Debian's chromium and PyPI's playwright when missing; screenshots
# in out/screenshots). The main suite needs no browser.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
RCPT_RELEASE_BINARY=$(scripts/release.sh | tail -1)
export RCPT_RELEASE_BINARY
swift build --build-tests
swift test
node --test Tests/Report/
RCPT="$RCPT_RELEASE_BINARY" scripts/browser-test.sh
