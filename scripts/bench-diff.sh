#!/usr/bin/env bash
# Builds two deterministic synthetic receipts of N in-app records (default 100 000) that differ in every record
# (seeds 1 and 2: same transaction ids, other purchase and expiry dates, opaque value and hash), signed by a
# throwaway TEST-ONLY CA, and measures `rcpt diff` on them: wall time and peak memory (/usr/bin/time -f "%e %M"),
# for text and JSON output, and for a receipt against itself. Prints the figures.
# Usage: scripts/bench-diff.sh [records]   (RCPT_BUILD_PATH overrides the build directory, default .build)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
records="${1:-100000}"
build="${RCPT_BUILD_PATH:-$root/.build}"
"$root/scripts/bootstrap.sh"
swift build --package-path "$root" --scratch-path "$build" -c release --product rcpt >&2
rcpt="$build/release/rcpt"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$rcpt" ca init "$work/ca" 2>/dev/null
"$rcpt" build --synthetic "$records" --seed 1 --ca "$work/ca" -o "$work/a.receipt" 2>/dev/null
"$rcpt" build --synthetic "$records" --seed 2 --ca "$work/ca" -o "$work/b.receipt" 2>/dev/null
size() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
echo "A: $records records, $(size "$work/a.receipt")   B: $records records, $(size "$work/b.receipt")"

measure() {  # measure LABEL ARGS... → prints one line: label, seconds, peak MB, and the diff's summary line
    local label="$1"
    shift
    local status=0
    /usr/bin/time -f "%e %M %U" -o "$work/time.txt" "$rcpt" diff --root "$work/ca/root.pem" "$@" \
        >"$work/out" 2>"$work/err" || status=$?
    if [ "$status" -gt 1 ]; then
        echo "rcpt diff $* failed with exit $status:" >&2
        cat "$work/err" >&2
        exit 1
    fi
    read -r seconds peak cpu < <(tail -n 1 "$work/time.txt")
    local summary
    summary="$(tail -n 1 "$work/out" | cut -c1-110)"
    case "$label" in *json*) summary="$(grep -c '"path"' "$work/out") changes in JSON" ;; esac
    printf '%-26s %7.2f s wall %7.2f s cpu %6.0f MB peak   exit %d   %s\n' "$label" "$seconds" "$cpu" \
        "$(awk -v k="$peak" 'BEGIN { print k / 1024 }')" "$status" "$summary"
}
measure "diff A B (text)" --color never "$work/a.receipt" "$work/b.receipt"
measure "diff A B --format json" --format json "$work/a.receipt" "$work/b.receipt"
measure "diff A B --only signers" --only signers "$work/a.receipt" "$work/b.receipt"
measure "diff A A (identical)" "$work/a.receipt" "$work/a.receipt"
