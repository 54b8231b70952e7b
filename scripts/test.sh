#!/usr/bin/env bash
# Runs the whole test suite from a fresh clone: installs missing system packages, builds, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build --build-tests
swift test
