#!/usr/bin/env bash
# The worst JWS shapes we know of, about 10 MB each (issue #20: work bounded by trust), timed through the release
# rcpt: wall time and peak RSS of `rcpt verify` and `rcpt dump --format json`. A figure, never a test: each should
# stay under a second on the project's machines.
#  - untrusted-64x20: a token from an untrusted chain carrying 64 tokens that carry 20 each (1 344 tokens);
#  - trusted-64x20: the same from the trusted test chain (every token verified; one shared x5c chain);
#  - duplicates-400k: a signed payload naming one member 400 000 times;
#  - response-64: an API response of 64 transactions.
# Usage: scripts/bench-jws.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/bootstrap.sh"
swift build --package-path "$root" -c release --product rcpt >&2
rcpt="$root/.build/release/rcpt"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$rcpt" ca init --shape jws "$work/ca" 2>/dev/null
"$rcpt" ca init --shape jws "$work/foreign" 2>/dev/null
signed=1717243200000
transaction="{\"transactionId\":\"2000000000000001\",\"bundleId\":\"com.example.app\",\"productId\":\"com.example.monthly\",\"purchaseDate\":$signed,\"signedDate\":$signed,\"environment\":\"Sandbox\"}"

nest() {  # nest CA: writes $work/$1-64x20.jws
    local ca=$1 inner mid list
    printf '%s' "$transaction" | "$rcpt" build --jws - --ca "$work/$ca" -o "$work/inner.jws" 2>/dev/null
    inner=$(tr -d '\n' < "$work/inner.jws")
    list=$(for _ in $(seq 20); do printf '"%s",' "$inner"; done)
    printf '{"bundleId":"com.example.app","environment":"Sandbox","signedDate":%s,"signedTransactions":[%s]}' \
        "$signed" "${list%,}" | "$rcpt" build --jws - --ca "$work/$ca" -o "$work/mid.jws" 2>/dev/null
    mid=$(tr -d '\n' < "$work/mid.jws")
    list=$(for _ in $(seq 64); do printf '"%s",' "$mid"; done)
    printf '{"bundleId":"com.example.app","environment":"Sandbox","signedDate":%s,"signedTransactions":[%s]}' \
        "$signed" "${list%,}" | "$rcpt" build --jws - --ca "$work/$ca" -o "$work/$2.jws" 2>/dev/null
}
nest foreign untrusted-64x20
nest ca trusted-64x20
python3 - "$work" "$signed" <<'PY'
import sys
work, signed = sys.argv[1], sys.argv[2]
members = ",".join('"rcptDuplicate":%d' % i for i in range(400000))
open(work + "/duplicates.json", "w").write('{"bundleId":"com.example.app","environment":"Sandbox","signedDate":%s,%s}' % (signed, members))
PY
"$rcpt" build --jws "$work/duplicates.json" --ca "$work/ca" -o "$work/duplicates-400k.jws" 2>/dev/null
printf '%s' "$transaction" | "$rcpt" build --jws - --ca "$work/ca" -o "$work/token.jws" 2>/dev/null
token=$(tr -d '\n' < "$work/token.jws")
list=$(for _ in $(seq 64); do printf '"%s",' "$token"; done)
printf '{"bundleId":"com.example.app","environment":"Sandbox","signedTransactions":[%s]}' "${list%,}" > "$work/response-64.json"

measure() {  # measure ARGS…: wall seconds and peak RSS (MB) of one rcpt run
    /usr/bin/time -f '%e %M' -o "$work/time" "$rcpt" "$@" >/dev/null 2>&1 || true
    tail -1 "$work/time" | awk '{ printf "%8.2f s %8.1f MB", $1, $2 / 1024 }'
}
printf '%-18s %10s | %-22s | %-22s | %s\n' shape bytes "verify" "dump --format json" verdict
for name in untrusted-64x20.jws trusted-64x20.jws duplicates-400k.jws response-64.json; do
    file="$work/$name"
    verdict=$("$rcpt" verify --root "$work/ca/root.pem" "$file" 2>/dev/null | head -1 | cut -d' ' -f1) || true
    printf '%-18s %10d | %s | %s | %s\n' "${name%.*}" "$(stat -c %s "$file")" \
        "$(measure verify --root "$work/ca/root.pem" "$file")" \
        "$(measure dump --format json --root "$work/ca/root.pem" "$file")" "$verdict"
done
