#!/usr/bin/env bash
# Builds the relocatable rcpt a CI job can download or keep instead of building: release mode with the Swift
# runtime and Foundation linked in statically (--static-swift-stdlib), so it needs only the system's C and C++
# libraries, OpenSSL 3 (libssl3) and libcurl (libcurl4) — no Swift toolchain. Checks that with ldd, strips it, copies it with the
# container recipe (docs/Containerfile) to out/release/, and prints the binary's path as its last line:
#   rcpt=$(scripts/release.sh | tail -1)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh --build
# Foundation's networking (conformance --target), linked statically, asks for -lcurl: libcurl stays a shared library
# of the system (libcurl4, which the toolchain's own FoundationNetworking needs too). Without the -dev package there is
# no libcurl.so to link against, so one is made beside the build, pointing at the runtime's libcurl.so.4.
mkdir -p .build-static/link
if ! ls /usr/lib/*/libcurl.so /usr/lib/libcurl.so >/dev/null 2>&1; then
    curl_library=$(ldconfig -p | awk '$1 == "libcurl.so.4" { print $NF; exit }')
    [ -n "$curl_library" ] || { echo "release: libcurl.so.4 not found (apt-get install libcurl4)" >&2; exit 1; }
    ln -sf "$curl_library" .build-static/link/libcurl.so
fi
swift build -c release --product rcpt --static-swift-stdlib --scratch-path .build-static \
    -Xlinker -L"$PWD/.build-static/link" >&2
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
