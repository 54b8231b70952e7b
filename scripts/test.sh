#!/usr/bin/env bash
# Runs the whole test suite from a fresh clone: installs missing system packages, lints the sources (swift format
# with .swift-format), builds the relocatable release binary (scripts/release.sh; ReleaseBinaryTests runs it with no
# Swift toolchain), builds, tests; then the README's library snippets from a package outside rcpt
# (Examples/LibraryClient), the unit tests
# of the report page's script under Node (Tests/Report/), and the page's tests in headless Chromium against that
# release binary (scripts/browser-test.sh installs Debian's chromium and PyPI's playwright when missing; screenshots
# in out/screenshots). The main suite needs no browser.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's wall time, on standard error, so a slow CI run says where its time went.
step_started=$(date +%s)
took() { echo "test.sh: $1 took $(( $(date +%s) - step_started )) s" >&2; step_started=$(date +%s); }
scripts/bootstrap.sh
took bootstrap
# The house style (.swift-format: 4 spaces, 120 columns), checked before anything is built.
swift format lint --strict --recursive Sources Tests Fuzz/Sources Fuzz/Package.swift Benchmarks/Sources \
    Benchmarks/Package.swift Examples Package.swift
took lint
RCPT_RELEASE_BINARY=$(scripts/release.sh | tail -1)
export RCPT_RELEASE_BINARY
took "release build"
swift build --build-tests
took "debug build"
# The man pages are the commands' help as it is now.
scripts/man.sh --check
swift test
took "swift test"
# The README's library snippets, compiled and run from a package outside rcpt that sees only its public API.
swift run --package-path Examples/LibraryClient library-client
# The library's DocC catalog builds without a warning (every symbol link resolves).
scripts/docs.sh > /dev/null
took "library client (public API), DocC"
node --test Tests/Report/
RCPT="$RCPT_RELEASE_BINARY" scripts/browser-test.sh
took "report tests (Node, Chromium)"
