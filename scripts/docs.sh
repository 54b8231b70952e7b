#!/usr/bin/env bash
# The library's documentation (DocC, from the toolchain's own `docc`): the symbol graphs of the `Rcpt` module and
# the catalog Sources/Library/Rcpt/Rcpt.docc, converted into a static site in out/docs (open
# out/docs/documentation/rcpt/index.html through any static file server). Fails on a warning, so a broken
# symbol link in the catalog is caught.
set -euo pipefail
cd "$(dirname "$0")/.."
graphs=.build/symbol-graphs
rm -rf "$graphs" out/docs
mkdir -p "$graphs" out
swift build --target Rcpt -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" >&2
docc convert Sources/Library/Rcpt/Rcpt.docc --fallback-display-name Rcpt --fallback-bundle-identifier rcpt.Rcpt \
    --additional-symbol-graph-dir "$graphs" --output-path out/docs --warnings-as-errors >&2
echo out/docs
