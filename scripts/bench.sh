#!/usr/bin/env bash
# rcpt's benchmark suite (issue #6). In one run:
#  - builds deterministic synthetic receipts of 0, 1 000, 10 000 and 100 000 in-app records with rcpt's own builder
#    (signed by a throwaway TEST-ONLY CA) and takes one real receipt from Corpus/;
#  - in-process full decode (every attribute, record and value) with rcpt and with a swift-asn1 implementation of
#    the same work (Benchmarks/, the baseline): MB/s, records/s, ratio — the decode tallies must match;
#  - whole processes on the same files: rcpt dump --format json, openssl asn1parse -i,
#    openssl cms -verify -noverify: wall time and peak RSS;
#  - the worst container and payload shapes we know of (about 10 MB each, Benchmarks' HostileShapes): wall time of
#    rcpt verify and rcpt dump --format json, which must stay around a second at most;
#  - instructions per in-app record under callgrind ((10 000-record run − 1 000-record run) / 9 000), a figure
#    that does not drift with machine load;
#  - the targets of issue #25 in one table, on the 100 000-record file: rcpt verify against openssl cms -verify
#    -noverify and against the swift-asn1 full decode, verify's instructions per in-app record (with and without
#    libcrypto's SHA-256, which valgrind runs in software), peak memory of verify and dump --format json as a
#    multiple of the input, dump --format json against openssl asn1parse -i, and (unless --no-fuzz) the
#    `attributes` harness against its swift-asn1 baseline in live fuzzing (scripts/fuzz-speed.sh's figure).
#    Wall times are the best of five runs, taken alternately;
#  - per-document speed (issue #38, scripts/bench-documents.sh): Apple-signed tokens and real receipts per
#    CPU-second against `openssl speed` and Apple's Python library, and `rcpt status` over many documents.
# Usage: scripts/bench.sh [--quick] [--no-fuzz]
#   --quick: 0 / 1 000 / 10 000 records, no 100 000-record file, no callgrind, no targets table
#   --no-fuzz: the targets table without the live-fuzzing row (which builds the fuzz harnesses first)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
quick=0
fuzz=1
for argument in "$@"; do
    case "$argument" in
        --quick) quick=1 ;;
        --no-fuzz) fuzz=0 ;;
        *) echo "usage: scripts/bench.sh [--quick] [--no-fuzz]" >&2; exit 2 ;;
    esac
done
"$root/scripts/bootstrap.sh"
swift build --package-path "$root" -c release --product rcpt >&2
swift build --package-path "$root/Benchmarks" -c release >&2
rcpt="$root/.build/release/rcpt"
bench="$root/Benchmarks/.build/release/rcpt-bench"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Where output is discarded. On some machines /dev/null is a regular file (a container's tmpfs), so every byte
# written "to /dev/null" is copied into memory: 827 MB of JSON cost rcpt a quarter of a second that openssl's 80 MB
# do not. A real null device (mknod c 1 3) is made then, when allowed; the table says which was used.
null=/dev/null
if [ ! -c /dev/null ]; then
    if mknod "$work/null" c 1 3 2>/dev/null; then
        null="$work/null"
        echo "Output is discarded into $null: /dev/null is not a character device on this machine."
    else
        echo "Output is discarded into /dev/null, a regular file on this machine: every output byte is stored."
    fi
fi

sizes=(0 1000 10000 100000)
[ $quick -eq 1 ] && sizes=(0 1000 10000)
"$rcpt" ca init "$work/ca" 2>/dev/null
files=()
for n in "${sizes[@]}"; do
    "$rcpt" build --synthetic "$n" --ca "$work/ca" -o "$work/synthetic-$n.receipt" 2>/dev/null
    files+=("$work/synthetic-$n.receipt")
done
files+=("$root/Corpus/receipts/tpinappreceipt-sandbox-legacy.receipt")

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
iterations_for() { local size=$1; local n=$(( 40000000 / (size + 1) )); [ $n -lt 1 ] && n=1; [ $n -gt 2000 ] && n=2000; echo $n; }

echo "In-process full decode (rcpt vs swift-asn1 baseline)"
printf '%-34s %10s %9s | %9s %11s | %9s %11s | %6s\n' file bytes records "rcpt MB/s" "records/s" "asn1 MB/s" "records/s" ratio
for file in "${files[@]}"; do
    size=$(stat -c %s "$file")
    iterations=$(iterations_for "$size")
    ours=$("$bench" parse "$file" --engine rcpt --iterations "$iterations")
    theirs=$("$bench" parse "$file" --engine swift-asn1 --iterations "$iterations")
    if [ "$(echo "$ours" | sed 's/^[^ ]* //; s/ seconds=[^ ]* mbps=[^ ]* rps=[^ ]*//')" != \
         "$(echo "$theirs" | sed 's/^[^ ]* //; s/ seconds=[^ ]* mbps=[^ ]* rps=[^ ]*//')" ]; then
        echo "decode tallies differ for $file:" >&2; echo "$ours" >&2; echo "$theirs" >&2; exit 1
    fi
    printf '%-34s %10s %9s | %9s %11s | %9s %11s | %6s\n' "$(basename "$file")" "$size" "$(echo "$ours" | field records)" \
        "$(echo "$ours" | field mbps)" "$(echo "$ours" | field rps)" "$(echo "$theirs" | field mbps)" \
        "$(echo "$theirs" | field rps)" \
        "$(awk -v a="$(echo "$ours" | field mbps)" -v b="$(echo "$theirs" | field mbps)" 'BEGIN { printf "%.2fx", a / b }')"
done

echo
echo "Whole processes (wall seconds / peak MB)"
printf '%-34s | %-18s | %-18s | %-18s\n' file "rcpt dump --format json" "openssl asn1parse -i" "openssl cms -noverify"
# The last line of time's output: a failing command adds "Command exited with non-zero status N" before it.
measure() {
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$null" 2>&1 || true
    tail -n 1 "$work/time" | awk '{ printf "%.2f s / %.0f MB", $1, $2/1024 }'
}
# The same with a time limit: OpenSSL needs over ten minutes on one of the hostile shapes.
measure_limited() {
    local limit=$1
    shift
    local status=0
    /usr/bin/time -f "%e %M" -o "$work/time" timeout "$limit" "$@" >"$null" 2>&1 || status=$?
    if [ $status -eq 124 ]; then echo "> $limit s (stopped)"; return; fi
    tail -n 1 "$work/time" | awk '{ printf "%.2f s / %.0f MB", $1, $2/1024 }'
}
for file in "${files[@]}"; do
    printf '%-34s | %-18s | %-18s | %-18s\n' "$(basename "$file")" \
        "$(measure "$rcpt" dump --format json "$file")" \
        "$(measure openssl asn1parse -inform DER -i -in "$file")" \
        "$(measure openssl cms -verify -noverify -binary -inform DER -in "$file" -out "$null")"
done

echo
echo "Hostile shapes (wall seconds / peak MB; about 10 MB each)"
mkdir -p "$work/hostile"
"$bench" hostile "$work/hostile" --ca "$work/ca"
printf '%-44s %9s | %-18s | %-18s | %-18s\n' file bytes "rcpt verify" "rcpt dump --format json" "openssl cms -noverify"
for file in "$work"/hostile/*.receipt; do
    printf '%-44s %9s | %-18s | %-18s | %-18s\n' "$(basename "$file")" "$(stat -c %s "$file")" \
        "$(measure "$rcpt" verify --root "$work/ca/root.pem" "$file")" \
        "$(measure "$rcpt" dump --format json --root "$work/ca/root.pem" "$file")" \
        "$(measure_limited 10 openssl cms -verify -noverify -binary -inform DER -in "$file" -out "$null")"
done

echo
count=10000
[ $quick -eq 1 ] && count=1000
echo "Batch: $count real-shaped receipts (copies of Corpus/receipts)"
mkdir -p "$work/batch"
real=("$root"/Corpus/receipts/*.receipt)
for ((i = 0; i < count; i++)); do cp "${real[$((i % ${#real[@]}))]}" "$work/batch/r$i.receipt"; done
start=$(date +%s.%N)
"$rcpt" dump --format jsonl "$work/batch" >"$null" 2>&1 || true
ours=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
start=$(date +%s.%N)
for file in "$work"/batch/*.receipt; do
    openssl cms -verify -noverify -binary -inform DER -in "$file" -out "$null" >"$null" 2>&1 || true
done
theirs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
printf '  rcpt dump --format jsonl DIR  %8.2f s
  shell loop of openssl cms     %8.2f s
  ratio                         %8.2fx
' \
    "$ours" "$theirs" "$(awk -v a="$theirs" -v b="$ours" 'BEGIN { print a / b }')"

if [ $quick -eq 0 ] && command -v valgrind >/dev/null; then
    echo
    echo "Instructions per in-app record (callgrind, (10 000 − 1 000) / 9 000)"
    per_record() {
        local engine=$1 a b
        valgrind --tool=callgrind --callgrind-out-file="$work/cg.1k" "$bench" parse "$work/synthetic-1000.receipt" --engine "$engine" >/dev/null 2>&1
        valgrind --tool=callgrind --callgrind-out-file="$work/cg.10k" "$bench" parse "$work/synthetic-10000.receipt" --engine "$engine" >/dev/null 2>&1
        a=$(callgrind_annotate "$work/cg.1k" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
        b=$(callgrind_annotate "$work/cg.10k" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
        echo $(( (b - a) / 9000 ))
    }
    printf '  rcpt        %8s\n  swift-asn1  %8s\n' "$(per_record rcpt)" "$(per_record swift-asn1)"
fi

echo
echo "Per-document speed: many small documents (scripts/bench-documents.sh)"
RCPT_BENCH_BINARY="$rcpt" RCPT_BENCH_TOOL="$bench" "$root/scripts/bench-documents.sh" $([ $quick -eq 1 ] && echo --quick)

[ $quick -eq 1 ] && exit 0

# The targets of issue #25, on the 100 000-record receipt.
big="$work/synthetic-100000.receipt"
bytes=$(stat -c %s "$big")
# run NAME COMMAND...: one run, its wall seconds and peak RSS (KB) appended to $work/runs.NAME.
# Wall time to the millisecond (time's own %e has two decimals, too coarse for 0.1 s runs).
run() {
    local name=$1 start end
    shift
    start=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$work/time" "$@" >"$null" 2>&1 || true
    end=$(date +%s%N)
    echo "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", (e - s) / 1e9 }') $(tail -n 1 "$work/time")" \
        >>"$work/runs.$name"
}
best() { sort -n "$work/runs.$1" | head -n 1 | cut -d' ' -f1; }
peak_kb() { sort -k2 -n "$work/runs.$1" | tail -n 1 | cut -d' ' -f2; }
for round in 1 2 3 4 5; do
    run verify "$rcpt" verify --root "$work/ca/root.pem" "$big"
    run cms openssl cms -verify -noverify -binary -inform DER -in "$big" -out "$null"
    run dump "$rcpt" dump --format json "$big"
    run asn1parse openssl asn1parse -inform DER -i -in "$big"
done
verify=("$(best verify)" "$(peak_kb verify)")
cms=("$(best cms)")
dump=("$(best dump)" "$(peak_kb dump)")
asn1parse=("$(best asn1parse)")
decode=$("$bench" parse "$big" --engine swift-asn1 --iterations 1 | field seconds)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f×", a / b }'; }

verify_instructions="not measured (no valgrind)"
if command -v valgrind >/dev/null; then
    # Total instructions, and those outside libcrypto (whose SHA-256 runs in software under valgrind: on the
    # hardware it uses the SHA extensions, so the hash is judged by wall time).
    instructions() {
        SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/cg" \
            "$rcpt" verify --root "$work/ca/root.pem" "$1" >/dev/null 2>&1 || true
        callgrind_annotate "$work/cg" 2>/dev/null | awk '
            /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
            /libcrypto/ { gsub(",", "", $1); crypto += $1 }
            END { print total, total - crypto }'
    }
    read -r small_total small_own < <(instructions "$work/synthetic-1000.receipt")
    read -r large_total large_own < <(instructions "$work/synthetic-10000.receipt")
    verify_instructions="$(( (large_total - small_total) / 9000 )) ($(( (large_own - small_own) / 9000 )) outside libcrypto)"
fi

fuzz_ratio="not measured (--no-fuzz)"
if [ $fuzz -eq 1 ]; then
    fuzz_line=$("$root/scripts/fuzz-speed.sh" --time 20 --passes 1 --only attributes | awk '$1 == "attributes" && $2 == "fuzz"')
    fuzz_ratio="$(echo "$fuzz_line" | awk '{ printf "%.2f× (%s vs %s exec/s in 20 s)", $5, $3, $4 }')"
fi

echo
echo "Issue #25 targets (100 000 records, $bytes bytes; wall: best of 5, alternated)"
printf '  %-58s %-34s %s\n' measure now target
printf '  %-58s %-34s %s\n' "rcpt verify ÷ openssl cms -verify -noverify (wall)" \
    "$(ratio "${verify[0]}" "${cms[0]}") (${verify[0]} s vs ${cms[0]} s)" "≤ 1.5×"
printf '  %-58s %-34s %s\n' "rcpt verify ÷ swift-asn1 full decode (wall)" \
    "$(ratio "${verify[0]}" "$decode") (${verify[0]} s vs $decode s)" "≤ 0.25×"
printf '  %-58s %-34s %s\n' "instructions per in-app record, rcpt verify (callgrind)" "$verify_instructions" "≤ 15 000"
printf '  %-58s %-34s %s\n' "peak memory ÷ input, rcpt verify" \
    "$(ratio "$((verify[1] * 1024))" "$bytes") ($((verify[1] / 1024)) MB)" "≤ 2×"
printf '  %-58s %-34s %s\n' "peak memory ÷ input, rcpt dump --format json" \
    "$(ratio "$((dump[1] * 1024))" "$bytes") ($((dump[1] / 1024)) MB)" "≤ 2×"
printf '  %-58s %-34s %s\n' "openssl asn1parse -i ÷ rcpt dump --format json (wall)" \
    "$(ratio "${asn1parse[0]}" "${dump[0]}") (${asn1parse[0]} s vs ${dump[0]} s)" "≥ 2×"
printf '  %-58s %-34s %s\n' "attributes harness ÷ swift-asn1 baseline (live fuzzing)" "$fuzz_ratio" "≥ 2×"
