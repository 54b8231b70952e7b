#!/usr/bin/env bash
# Compares the speed of rcpt's `attributes` and `ber` harnesses with swift-asn1 harnesses of the same shape
# (`baseline-attributes`, `baseline-ber`: same inputs, same -max_len, same sanitizer, same build), in one run.
#
#   scripts/fuzz-speed.sh [--time S] [--passes N] [--only HARNESS]
#
# Three measures per pair, each taken alternately (ours, theirs, ours, theirs) so load on the machine hits both:
#   valid   the committed seeds (real and synthetic payloads and receipts, nearly all well-formed, which both
#           read completely), 50 copies each,
#           N passes through the harness (-runs=0); inputs per second of wall time, less the start-up time;
#   replay  the same over the committed seeds plus the working corpus of the campaign (mostly damaged inputs,
#           each cut to -max_len), where swift-asn1 stops at the first error and ours reads on;
#   fuzz    libFuzzer's own exec/s over S seconds from the same seeds with the same -seed.
# The ratio is ours ÷ swift-asn1: above 1 means ours is faster.
#
#   scripts/fuzz-speed.sh --jws [--time S] [--passes N]
#
# The JWS harnesses instead (issue #40 asks jws-verify for 10× the 150–170 exec/s it had): for `jws` and
# `jws-verify`, replay (the committed seeds through the harness, no mutation: the harness's own cost per input) and
# fuzz (libFuzzer's exec/s over S seconds with the harness's options, its dictionary and harvested words, and its
# structure-aware mutator, as scripts/fuzz.sh runs it). jws-verify's campaigns run in the fast build (no ASan,
# fuzz_flavour in scripts/fuzz-options.sh): it is measured in that build and under ASan beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
seconds=60
passes=5
harnesses="attributes ber"
jws=0
while [ $# -gt 0 ]; do
    case "$1" in
        --jws) jws=1 ;;
        --time) seconds=$2; shift ;;
        --passes) passes=$2; shift ;;
        --only) harnesses=$2; shift ;;
        *) echo "usage: scripts/fuzz-speed.sh [--jws] [--time S] [--passes N] [--only HARNESS]" >&2; exit 2 ;;
    esac
    shift
done
BIN=${FUZZ_SCRATCH:-$ROOT/Fuzz/.build}/release
WORK=${FUZZ_WORK:-$ROOT/Fuzz/.build-work}
export SWIFT_BACKTRACE=enable=no
# shellcheck source=scripts/fuzz-options.sh
. "$ROOT/scripts/fuzz-options.sh"
# ASan's run-time options as scripts/fuzz.sh runs the harnesses (ASan's defaults, a 256 MB quarantine, measured
# another speed than a campaign has).
export ASAN_OPTIONS=${ASAN_OPTIONS:-$FUZZ_ASAN_OPTIONS}
scripts/fuzz.sh build >/dev/null

now() { date +%s.%N; }

# Seconds one process takes to run `passes` passes over directory $2.
replay_seconds() {
    local binary=$1 directory=$2 max_len=$3 started total=0 pass
    for pass in $(seq "$passes"); do
        started=$(now)
        "$binary" -runs=0 -max_len="$max_len" "$directory" >/dev/null 2>&1
        total=$(echo "$total + $(now) - $started" | bc -l)
    done
    echo "$total"
}

# Sets ours_rate and theirs_rate: inputs per second over directory $1 (holding $2 inputs) for the harness and its
# baseline, each run twice, alternately, less start-up time. Uses $harness, $max_len and the start-up times.
measure_rates() {
    local directory=$1 count=$2 ours theirs
    ours=$(replay_seconds "$BIN/$harness" "$directory" "$max_len")
    theirs=$(replay_seconds "$BIN/baseline-$harness" "$directory" "$max_len")
    ours=$(echo "$ours + $(replay_seconds "$BIN/$harness" "$directory" "$max_len") - 2 * $ours_startup" | bc -l)
    theirs=$(echo "$theirs + $(replay_seconds "$BIN/baseline-$harness" "$directory" "$max_len") \
        - 2 * $theirs_startup" | bc -l)
    ours_rate=$(echo "2 * $passes * $count / $ours" | bc -l)
    theirs_rate=$(echo "2 * $passes * $count / $theirs" | bc -l)
}

fuzz_rate() {
    local binary=$1 harness=$2 max_len=$3 scratch
    scratch=$(mktemp -d)
    "$binary" -seed=1 -max_total_time="$seconds" -max_len="$max_len" -dict="$ROOT/Corpus/fuzz/$harness.dict" \
        -print_final_stats=1 "$scratch" "$ROOT/Corpus/fuzz/$harness" 2>&1 \
        | sed -n 's/^stat::average_exec_per_sec: *//p'
    rm -rf "$scratch"
}

if [ $jws -eq 1 ]; then
    # Each harness in the build its campaigns run in (fuzz_flavour: jws-verify in the fast one), and under ASan
    # beside it when that differs, so both figures come from one run.
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
    scripts/fuzz.sh build --ubsan >/dev/null
    FAST_BIN=${FUZZ_SCRATCH_FAST:-$ROOT/Fuzz/.build-ubsan}/release
    printf '%-12s %-9s %-8s %14s\n' harness build measure "per second"
    for harness in jws jws-verify; do
        builds=address
        [ "$(fuzz_flavour "$harness")" = undefined ] && builds="undefined address"
        for build in $builds; do
            binary=$BIN/$harness
            [ "$build" = undefined ] && binary=$FAST_BIN/$harness
            label=$build
            [ "$build" = undefined ] && label=fast
            [ "$build" = "$(fuzz_flavour "$harness")" ] && label="$label*"
            max_len=$(fuzz_option "$harness" max_len 4096)
            empty=$(mktemp -d)
            startup=$(replay_seconds "$binary" "$empty" "$max_len")
            count=$(find "Corpus/fuzz/$harness" -type f | wc -l)
            total=$(replay_seconds "$binary" "Corpus/fuzz/$harness" "$max_len")
            printf '%-12s %-9s %-8s %14.0f   (%d seeds × %d passes, inputs/s)\n' "$harness" "$label" replay \
                "$(echo "$passes * $count / ($total - $startup)" | bc -l)" "$count" "$passes"
            scratch=$(mktemp -d)
            # shellcheck disable=SC2046  # one flag per line
            rate=$("$binary" -seed=1 -max_total_time="$seconds" -print_final_stats=1 \
                $(fuzz_option_flags "$harness" "$binary" "$WORK/words-$build") "$scratch" "Corpus/fuzz/$harness" \
                2>&1 | sed -n 's/^stat::average_exec_per_sec: *//p')
            printf '%-12s %-9s %-8s %14s   (%d s, exec/s)\n' "$harness" "$label" fuzz "$rate" "$seconds"
            rm -rf "$empty" "$scratch"
        done
    done
    echo "(* the build the harness's campaigns run in: scripts/fuzz.sh, the planted-bug benchmark)"
    exit 0
fi

printf '%-12s %-8s %14s %14s %8s\n' harness measure "rcpt" "swift-asn1" ratio
for harness in $harnesses; do
    max_len=$(sed -n 's/^max_len = //p' "Corpus/fuzz/$harness.options")
    inputs=$(mktemp -d)
    empty=$(mktemp -d)
    for file in "Corpus/fuzz/$harness"/* "$WORK/corpus/$harness"/*; do
        [ -f "$file" ] && head -c "$max_len" "$file" >"$inputs/$(sha1sum "$file" | cut -c1-40)"
    done
    count=$(find "$inputs" -type f | wc -l)
    ours_startup=$(replay_seconds "$BIN/$harness" "$empty" "$max_len")
    theirs_startup=$(replay_seconds "$BIN/baseline-$harness" "$empty" "$max_len")
    measure_rates "$inputs" "$count"
    printf '%-12s %-8s %14.0f %14.0f %8.2f   (%d inputs × %d passes, inputs/s)\n' "$harness" replay "$ours_rate" \
        "$theirs_rate" "$(echo "$ours_rate / $theirs_rate" | bc -l)" "$count" $((2 * passes))
    valid=$(mktemp -d)
    for file in "Corpus/fuzz/$harness"/*; do
        for copy in $(seq 50); do head -c "$max_len" "$file" >"$valid/$(basename "$file")-$copy"; done
    done
    valid_count=$(find "$valid" -type f | wc -l)
    measure_rates "$valid" "$valid_count"
    printf '%-12s %-8s %14.0f %14.0f %8.2f   (%d seeds × 50 copies × %d passes, inputs/s)\n' "$harness" valid \
        "$ours_rate" "$theirs_rate" "$(echo "$ours_rate / $theirs_rate" | bc -l)" "$((valid_count / 50))" \
        $((2 * passes))
    rm -rf "$valid"
    ours_fuzz=$(fuzz_rate "$BIN/$harness" "$harness" "$max_len")
    theirs_fuzz=$(fuzz_rate "$BIN/baseline-$harness" "$harness" "$max_len")
    printf '%-12s %-8s %14s %14s %8.2f   (%d s each, exec/s)\n' "$harness" fuzz "$ours_fuzz" "$theirs_fuzz" \
        "$(echo "$ours_fuzz / $theirs_fuzz" | bc -l)" "$seconds"
    rm -rf "$inputs" "$empty"
done
