#!/usr/bin/env bash
# Builds the relocatable rcpt a CI job can download or keep instead of building: release mode with the Swift
# runtime and Foundation linked in statically (--static-swift-stdlib), so it needs only the system's C and C++
# libraries and OpenSSL 3 (libssl3) — no Swift toolchain. Checks that with ldd, strips it, copies it with the
# container recipe (docs/Containerfile) to out/release/, and prints the binary's path as its last line:
#   rcpt=$(scripts/release.sh | tail -1)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build -c release --product rcpt --static-swift-stdlib --scratch-path .build-static >&2
built=.build-static/release/rcpt
if ldd "$built" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|libicu|libXCTest' >&2; then
    echo "release: $built still needs the Swift runtime (above)" >&2
    exit 1
fi
mkdir -p out/release
cp "$built" out/release/rcpt
strip out/release/rcpt
cp docs/Containerfile out/release/Containerfile
echo "release: out/release/rcpt, $(du -h out/release/rcpt | cut -f1), needs: $(ldd out/release/rcpt | awk '/=>/ {print $1}' | tr '\n' ' ')" >&2
echo "$PWD/out/release/rcpt"
