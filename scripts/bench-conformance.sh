#!/usr/bin/env bash
# Prints how long `rcpt conformance` takes over a 140-input suite (the sandbox receipt's catalogue) with a Python
# validator (Tests/Tools/RcptCLITests/Validators/bundle_only.py), at --jobs 1, 2 … up to the cores, and the speed-up
# against --jobs 1 measured in the same run. A benchmark prints figures; nothing here passes or fails on them.
set -euo pipefail
cd "$(dirname "$0")/.."
RCPT=${RCPT:-scripts/rcpt}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$RCPT" ca init "$scratch/ca" >/dev/null 2>&1
"$RCPT" mutate Corpus/receipts/kvitto-sandboxReceipt.receipt --all --ca "$scratch/ca" --out-dir "$scratch/suite" >/dev/null 2>&1
# The validator calls the built binary straight (scripts/rcpt would check the build each time).
rcpt_path=$(realpath "$RCPT")
[ "$RCPT" = scripts/rcpt ] && rcpt_path="$PWD/.build/release/rcpt"
validator="python3 $PWD/Tests/Tools/RcptCLITests/Validators/bundle_only.py $rcpt_path com.cocoanetics.EmmiView {}"
cores=$(getconf _NPROCESSORS_ONLN)
base=""
for jobs in $(seq 1 "$cores"); do
    start=$(date +%s%N)
    "$RCPT" conformance --jobs "$jobs" --validator "$validator" "$scratch/suite" >"$scratch/out.txt" || true
    end=$(date +%s%N)
    ms=$(( (end - start) / 1000000 ))
    [ -z "$base" ] && base=$ms
    runs=$(tail -1 "$scratch/out.txt" | cut -d: -f1)
    printf 'conformance --jobs %d: %s in %d.%03d s, %s× --jobs 1\n' "$jobs" "$runs" $((ms / 1000)) $((ms % 1000)) \
        "$(awk -v b="$base" -v m="$ms" 'BEGIN { printf "%.2f", b / m }')"
done
