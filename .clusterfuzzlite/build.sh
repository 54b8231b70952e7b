#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build: every harness of Fuzz/ into $OUT, with its dictionary (and the words its code
# compares with), options (max_len, dict)
# and seed corpus, and the TEST-ONLY keys the verify harness re-signs and verifies with ($OUT/verify_keys/, where
# it looks beside its binary). Runs in the base-builder-swift image (with $SRC, $OUT and $SANITIZER set), or locally:
#
#   OUT=$(mktemp -d) .clusterfuzzlite/build.sh
#
# Locally it uses the recipe of Fuzz/README.md; in the image, precompile_swift's flags plus the same
# -Xswiftc -sanitize=fuzzer,$SANITIZER (without it, library targets are not instrumented for coverage).
ROOT=${SRC:+$SRC/rcpt}
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
OUT=${OUT:?set OUT to the folder the harnesses go to}
SANITIZER=${SANITIZER:-address}
HARNESSES="attributes in-app ber pkcs7 dump dates differential verify jws jws-verify status classifier"

if command -v precompile_swift >/dev/null 2>&1; then
    . precompile_swift
    FLAGS="$SWIFT6_2FLAGS"
else
    FLAGS="--sanitize=fuzzer"
fi
FLAGS="$FLAGS -Xswiftc -sanitize=fuzzer,$SANITIZER"
# OpenSSL is linked dynamically; ship it beside the harnesses for runner images that lack it.
FLAGS="$FLAGS -Xlinker -rpath=\$ORIGIN/lib"
SCRATCH=${SCRATCH:-$ROOT/Fuzz/.build-oss-fuzz}

mkdir -p "$OUT/lib"
rm -f "$SCRATCH/release.yaml"  # re-plan, so sources added to the main package since the last build are seen
for harness in $HARNESSES; do
    # One product at a time: Fuzz/ also holds fuzz-corpus, an ordinary tool with its own main.
    # shellcheck disable=SC2086
    swift build --package-path "$ROOT/Fuzz" --scratch-path "$SCRATCH" -c release $FLAGS --product "$harness"
    cp "$SCRATCH/release/$harness" "$OUT/$harness"
    # The committed dictionary with the words the binary's code compares with (scripts/fuzz-words.py).
    python3 "$ROOT/scripts/fuzz-words.py" "$OUT/$harness" "$ROOT/Corpus/fuzz/$harness.dict" "$OUT/$harness.dict" \
        || cp "$ROOT/Corpus/fuzz/$harness.dict" "$OUT/$harness.dict"
    cp "$ROOT/Corpus/fuzz/$harness.options" "$OUT/$harness.options"
    rm -f "$OUT/${harness}_seed_corpus.zip"
    (cd "$ROOT/Corpus/fuzz/$harness" && zip -q -r "$OUT/${harness}_seed_corpus.zip" .)
done
# TEST-ONLY, not secret, not Apple's: the committed chain of Corpus/fuzz/keys/ and its foreign/ chain.
rm -rf "$OUT/verify_keys"
mkdir -p "$OUT/verify_keys/foreign"
cp "$ROOT"/Corpus/fuzz/keys/*.pem "$ROOT"/Corpus/fuzz/keys/*.key "$ROOT"/Corpus/fuzz/keys/README.* "$OUT/verify_keys/"
cp "$ROOT"/Corpus/fuzz/keys/foreign/*.pem "$ROOT"/Corpus/fuzz/keys/foreign/*.key "$OUT/verify_keys/foreign/"
# TEST-ONLY too: the EC chain of Corpus/fuzz/keys-jws/ the jws-verify harness re-signs and verifies with.
rm -rf "$OUT/jws_keys"
mkdir -p "$OUT/jws_keys/foreign"
cp "$ROOT"/Corpus/fuzz/keys-jws/*.pem "$ROOT"/Corpus/fuzz/keys-jws/*.key "$ROOT"/Corpus/fuzz/keys-jws/README.* "$OUT/jws_keys/"
cp "$ROOT"/Corpus/fuzz/keys-jws/foreign/*.pem "$ROOT"/Corpus/fuzz/keys-jws/foreign/*.key "$OUT/jws_keys/foreign/"
for library in libssl.so.3 libcrypto.so.3; do
    path=$(ldd "$OUT/dump" | awk -v name="$library" '$1 == name { print $3 }')
    [ -n "$path" ] && cp -L "$path" "$OUT/lib/"
done
echo "build.sh: $(echo $HARNESSES | wc -w) harnesses in $OUT"
