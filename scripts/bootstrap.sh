#!/usr/bin/env bash
# Installs what rcpt needs on a fresh Debian machine of this kind, if it is missing: OpenSSL 3 headers
# (libssl-dev) and pkg-config; the tz database (tzdata), the independent reference the Pacific-time tests of
# --format verifyreceipt compare with. Swift 6 and the local SwiftPM package mirror come with the machine.
# Idempotent and quiet when everything is present.
# --build: only what building rcpt needs (scripts/rcpt, scripts/release.sh): no test peers from PyPI or Debian, so a
# release builds offline (a CI trial: the release build aborted where PyPI was out of reach).
set -euo pipefail
build_only=0
[ "${1:-}" = "--build" ] && build_only=1

if ! command -v swift >/dev/null 2>&1; then
    echo "bootstrap: swift is not on PATH; rcpt needs Swift 6 (see README.md)" >&2
    exit 2
fi

if ! pkg-config --exists openssl 2>/dev/null; then
    echo "bootstrap: installing libssl-dev and pkg-config" >&2
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libssl-dev pkg-config >&2
fi

[ $build_only -eq 1 ] && exit 0

if [ ! -e /usr/share/zoneinfo/America/Los_Angeles ]; then
    echo "bootstrap: installing tzdata" >&2
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq tzdata >&2
fi

# Node runs the unit tests of the report page's script (Tests/Report/); Debian's nodejs when it is missing.
if ! command -v node >/dev/null 2>&1; then
    echo "bootstrap: installing nodejs (the report script's unit tests)" >&2
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs >&2
fi

# Apple's own JWS verifier (PyPI's app-store-server-library, pinned): the calibration tests run it as a validator.
if ! python3 -c 'import appstoreserverlibrary' >/dev/null 2>&1 \
    || [ "$(python3 -c 'import importlib.metadata as m; print(m.version("app-store-server-library"))')" != "3.1.2" ]; then
    echo "bootstrap: installing app-store-server-library 3.1.2 (Apple's verifier, for the calibration tests)" >&2
    python3 -m pip install -q app-store-server-library==3.1.2 >&2
fi

# The report schema tests validate SARIF with jsonschema and JUnit XML with xmlschema (PyPI).
if ! python3 -c 'import jsonschema, xmlschema' >/dev/null 2>&1; then
    echo "bootstrap: installing the Python packages jsonschema and xmlschema" >&2
    python3 -m pip install -q jsonschema xmlschema >&2
fi
