#!/usr/bin/env bash
# Builds deterministic synthetic receipts (signed by a throwaway TEST-ONLY CA) of 1 000, 10 000 and 100 000 in-app
# records and measures `rcpt dump --format json`, `rcpt dump` (text) and `rcpt verify` on each: wall time, peak
# memory, and both as multiples of the input. Prints a table. Usage: scripts/bench-large-receipt.sh [records...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/bootstrap.sh"
swift build --package-path "$root" -c release --product rcpt >&2
rcpt="$root/.build/release/rcpt"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 100000)

"$rcpt" ca init "$work/ca" 2>/dev/null
measure() {  # measure LABEL FILE ARGS... → "seconds peak_kb"
    local out="$work/time.txt"
    /usr/bin/time -f "%e %M" -o "$out" "$rcpt" "$@" >/dev/null 2>&1 || true
    cat "$out"
}
printf '%-9s %10s | %-22s | %-22s | %-22s\n' records "input MB" "dump --format json" "dump (text)" "verify"
printf '%-9s %10s | %-22s | %-22s | %-22s\n' "" "" "s / peak MB / ×input" "s / peak MB / ×input" "s / peak MB / ×input"
for n in "${sizes[@]}"; do
    file="$work/synthetic-$n.receipt"
    "$rcpt" build --synthetic "$n" --ca "$work/ca" -o "$file" 2>/dev/null
    bytes=$(stat -c %s "$file")
    row=()
    for args in "dump --format json" "dump" "verify --root $work/ca/root.pem"; do
        # shellcheck disable=SC2086
        read -r seconds peak <<<"$(measure $args "$file")"
        row+=("$(awk -v s="$seconds" -v k="$peak" -v b="$bytes" 'BEGIN { printf "%.2f / %.0f / %.1f", s, k/1024, k*1024/b }')")
    done
    printf '%-9s %10.1f | %-22s | %-22s | %-22s\n' "$n" "$(awk -v b="$bytes" 'BEGIN { print b/1e6 }')" "${row[@]}"
done
