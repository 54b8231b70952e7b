#!/usr/bin/env bash
# Builds and runs rcpt's libFuzzer harnesses (the Fuzz/ package). See Fuzz/README.md.
#
#   scripts/fuzz.sh build [--ubsan]                   build every harness (ASan by default; --ubsan: see below)
#   scripts/fuzz.sh [HARNESS...|all] [--time S | --runs N] [--asan|--ubsan] [--no-build]
#                                                     fuzz one, several or all harnesses, one after another, each
#                                                     in its own build (jws-verify's and status's are the fast
#                                                     one, see below)
#   scripts/fuzz.sh --regressions [--ubsan]           replay Corpus/regressions/ through every harness
#   scripts/fuzz.sh --merge [HARNESS...]              shrink the working corpora to the inputs that add coverage
#   scripts/fuzz.sh --minimize CRASH [--harness H]    minimise a crashing input (harness taken from its name)
#   scripts/fuzz.sh --replay HARNESS FILE...          run files through a harness once
#   scripts/fuzz.sh --ci                              regressions through every harness, then a short burst each
#
# Every run uses the harness's -max_len and dictionary from Corpus/fuzz/<harness>.options and .dict, a 1 s
# per-input timeout and a 2 GB memory limit. Any crash, leak, timeout or OOM makes the script exit non-zero and
# print the reproducer and the command that replays it. At the end it prints exec/s, coverage and corpus size per
# harness. Working corpora and artifacts live in $FUZZ_WORK (default Fuzz/.build-work/, git-ignored); the committed
# seeds in Corpus/fuzz/<harness>/ are only read.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

HARNESSES=(attributes in-app ber pkcs7 dump dates differential verify jws jws-verify status classifier)
BASELINES=(baseline-attributes baseline-ber)
# Templates for users' own harnesses: built (so they keep compiling), never fuzzed by --ci (example-validator
# finds its planted bug by design).
TEMPLATES=(example-validator)
WORK=${FUZZ_WORK:-$ROOT/Fuzz/.build-work}
TIMEOUT_SECONDS=1
MEMORY_MB=2048
CI_BURST_SECONDS=${FUZZ_CI_BURST_SECONDS:-12}

# The build: address (ASan), undefined (the fast build), or "" for each harness's own (fuzz_flavour).
sanitizer=""
mode=fuzz
time_budget=""
runs=""
build=1
minimize_input=""
minimize_harness=""
selected=()
replay_files=()

usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }

while [ $# -gt 0 ]; do
    case "$1" in
        build) mode=build ;;
        --ubsan) sanitizer=undefined ;;
        --asan) sanitizer=address ;;
        --time) time_budget=${2:?--time needs seconds}; shift ;;
        --runs) runs=${2:?--runs needs a count}; shift ;;
        --no-build) build=0 ;;
        --regressions) mode=regressions ;;
        --merge) mode=merge ;;
        --minimize) mode=minimize; minimize_input=${2:?--minimize needs a crash file}; shift ;;
        --harness) minimize_harness=${2:?--harness needs a name}; shift ;;
        --replay) mode=replay ;;
        --ci) mode=ci ;;
        -h|--help) usage 0 ;;
        all) selected=("${HARNESSES[@]}") ;;
        -*) echo "fuzz.sh: unknown option $1" >&2; usage ;;
        *)
            if [ "$mode" = replay ] && [ ${#selected[@]} -eq 1 ]; then replay_files+=("$1")
            else selected+=("$1"); fi ;;
    esac
    shift
done
[ ${#selected[@]} -eq 0 ] && selected=("${HARNESSES[@]}")

# shellcheck source=scripts/fuzz-options.sh
. "$ROOT/scripts/fuzz-options.sh"
# use_flavour address|undefined: the build folder, binaries and flags of that build. FUZZ_SCRATCH picks another
# build folder (e.g. to rebuild while a campaign runs from the default one).
use_flavour() {
    FLAVOUR=$1
    if [ "$1" = address ]; then
        SCRATCH=${FUZZ_SCRATCH:-$ROOT/Fuzz/.build}
        SWIFT_SANITIZE=("${FUZZ_ASAN_BUILD_FLAGS[@]}")
    else
        # Without ASan (faster; Swift's own traps on overflow, bounds and unwrap errors stay), with clang's UBSan on
        # the C code compiled into the harnesses (the COpenSSL shim's inline functions).
        SCRATCH=${FUZZ_SCRATCH:-$ROOT/Fuzz/.build-ubsan}
        SWIFT_SANITIZE=("${FUZZ_FAST_BUILD_FLAGS[@]}")
    fi
    BIN=$SCRATCH/release
}
# Every mode but a campaign builds and runs one flavour: ASan unless --ubsan (--ci always ASan).
use_flavour "${sanitizer:-address}"

# The Swift runtime's own crash backtracer fights the sanitizers; libFuzzer prints the stack instead.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-$FUZZ_ASAN_OPTIONS}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# The TEST-ONLY keys the verify harness inspects and re-signs with (it also finds them above its binary).
export RCPT_FUZZ_KEYS=${RCPT_FUZZ_KEYS:-$ROOT/Corpus/fuzz/keys}

known_harness() {
    local name
    for name in "${HARNESSES[@]}" "${BASELINES[@]}"; do [ "$name" = "$1" ] && return 0; done
    return 1
}
for harness in "${selected[@]}"; do
    known_harness "$harness" || { echo "fuzz.sh: no harness named $harness (${HARNESSES[*]})" >&2; exit 2; }
done

# ---- Building ----

build_harnesses() {
    local products=("$@") product started
    started=$(date +%s)
    echo "fuzz.sh: building ${products[*]} (${FLAVOUR/undefined/fast: no ASan, UBSan on C} build) in ${SCRATCH#$ROOT/}"
    "$ROOT/scripts/bootstrap.sh"
    fuzz_build_stamp "$SCRATCH" "${SWIFT_SANITIZE[@]}"
    # SwiftPM does not re-plan a build when a source file is added to the path dependency (the main package), so
    # a kept build folder would miss it ("cannot find … in scope"); dropping the plan makes it look again.
    rm -f "$SCRATCH/release.yaml"
    local index=0 product_started
    for product in "${products[@]}"; do
        index=$((index + 1))
        product_started=$(date +%s)
        # A line per product, so a cold build (minutes) shows where it is.
        echo "fuzz.sh: building $product ($index of ${#products[@]})"
        # One product at a time: the package also holds fuzz-corpus, an ordinary tool with its own main.
        if ! nice -n 10 swift build --package-path "$ROOT/Fuzz" --scratch-path "$SCRATCH" -c release \
            "${SWIFT_SANITIZE[@]}" --product "$product" >"$WORK/build-$product.log" 2>&1; then
            echo "fuzz.sh: building $product failed; the log is $WORK/build-$product.log" >&2
            grep -E "error:" "$WORK/build-$product.log" | head -20 >&2
            exit 2
        fi
        echo "fuzz.sh: built $product in $(( $(date +%s) - product_started )) s"
    done
    echo "fuzz.sh: built in $(( $(date +%s) - started )) s"
}

# ---- Running ----


common_flags() {  # common_flags HARNESS [--words]: --words adds the binary's comparison words to the dictionary
    local harness=$1 words=()
    [ "${2:-}" = --words ] && words=("$BIN/$harness" "$WORK/words")
    local flags=("-timeout=$TIMEOUT_SECONDS" "-rss_limit_mb=$MEMORY_MB" "-malloc_limit_mb=$MEMORY_MB"
                 "-artifact_prefix=$WORK/artifacts/$harness-" "-print_final_stats=1" "-detect_leaks=1")
    mapfile -t -O ${#flags[@]} flags < <(fuzz_option_flags "$harness" "${words[@]}")
    printf '%s\n' "${flags[@]}"
}

declare -A RESULT EXECS COVERAGE CORPUS SECONDS_RUN BUILT_WITH
FAILED=0

# What a harness run comes to (the summary's result column), each named once here: ok, or what went wrong.
readonly OK=ok TIMEOUT=timeout OOM=oom LEAK=leak CRASH=crash NEVER_RAN=never-ran INCOMPLETE=incomplete
# A harness that exited otherwise than libFuzzer does on a finding: "exit-N".
readonly EXITED=exit-

# What went wrong in a libFuzzer log, or $OK. $OK needs evidence that the harness ran: libFuzzer's start line, an
# exit status of 0, and (replaying files) every file executed. A harness that is missing or cannot start (no
# libssl, a bad flag) is $NEVER_RAN, never $OK.
classify() {
    local log=$1 status=${2:-0} expected=${3:-}
    if grep -q "ERROR: libFuzzer: timeout" "$log"; then echo $TIMEOUT
    elif grep -qE "ERROR: libFuzzer: out-of-memory|ERROR: libFuzzer: malloc\(" "$log"; then echo $OOM
    elif grep -q "ERROR: LeakSanitizer" "$log"; then echo $LEAK
    elif grep -qE "ERROR: (libFuzzer|AddressSanitizer|UndefinedBehaviorSanitizer)|runtime error:" "$log"; then echo $CRASH
    elif grep -qE "rcpt fuzz oracle failure|Fatal error" "$log"; then echo $CRASH
    elif ! grep -q "INFO: Seed:" "$log"; then echo $NEVER_RAN
    elif [ "$status" -ne 0 ]; then echo "$EXITED$status"
    elif [ -n "$expected" ] && [ "$(grep -c "^Executed " "$log")" -ne "$expected" ]; then echo $INCOMPLETE
    else echo $OK
    fi
}

# Whether a result says the harness did not run as asked (its log's head says why).
did_not_run() { [ "$1" = "$NEVER_RAN" ] || [ "$1" = "$INCOMPLETE" ] || [[ $1 == "$EXITED"* ]]; }

report_failure() {
    local harness=$1 log=$2 kind=$3 artifact
    artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    FAILED=1
    echo
    echo "fuzz.sh: $harness: $kind"
    grep -E -A12 "rcpt fuzz oracle failure|ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error:" "$log" \
        | head -40 | sed 's/^/    /'
    did_not_run "$kind" && head -8 "$log" | sed 's/^/    /'
    if [ -n "$artifact" ]; then
        echo "  reproducer: $artifact"
        echo "  replay:     scripts/fuzz.sh --replay $harness $artifact"
        echo "  minimise:   scripts/fuzz.sh --minimize $artifact --harness $harness"
        echo "  then keep it: cp <minimised> Corpus/regressions/$harness-<what-it-is>.bin"
    fi
    echo "  full log:   $log"
}

# Fuzzes one harness; fills in the summary arrays.
fuzz_one() {
    local harness=$1 seconds=$2 run_count=$3 started log corpus kind done_line
    log=$WORK/logs/$harness.log
    corpus=$WORK/corpus/$harness
    mkdir -p "$corpus" "$WORK/logs" "$WORK/artifacts"
    local flags
    mapfile -t flags < <(common_flags "$harness" --words)
    [ -n "$seconds" ] && flags+=("-max_total_time=$seconds")
    [ -n "$run_count" ] && flags+=("-runs=$run_count")
    echo "fuzz.sh: $harness: fuzzing ${seconds:+for $seconds s}${run_count:+for $run_count runs} (log $log)"
    started=$(date +%s)
    # The live status lines (exec/s, cov, corpus) go to the terminal as well as the log.
    nice -n 10 "$BIN/$harness" "${flags[@]}" "$corpus" "$ROOT/Corpus/fuzz/$harness" 2>&1 | tee "$log" \
        | grep --line-buffered -E "^#[0-9]+.*(pulse|DONE)|INITED" | sed -u "s/^/  [$harness] /"
    local status=${PIPESTATUS[0]}
    SECONDS_RUN[$harness]=$(( $(date +%s) - started ))
    kind=$(classify "$log" "$status")
    RESULT[$harness]=$kind
    EXECS[$harness]=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    done_line=$(grep -E "^#[0-9]+.*(DONE|pulse|NEW|REDUCE|INITED)" "$log" | tail -1)
    COVERAGE[$harness]=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$done_line")
    CORPUS[$harness]=$(sed -n 's/.* corp: \([0-9]*\/[0-9A-Za-z]*\).*/\1/p' <<<"$done_line")
    [ "$kind" != "$OK" ] && report_failure "$harness" "$log" "$kind"
}

print_summary() {
    echo
    printf '%-14s %-8s %10s %8s %16s %8s %s\n' harness result "exec/s" cov corpus seconds build
    local harness build
    for harness in "$@"; do
        build=${BUILT_WITH[$harness]:-$FLAVOUR}
        printf '%-14s %-8s %10s %8s %16s %8s %s\n' "$harness" "${RESULT[$harness]:-?}" "${EXECS[$harness]:--}" \
            "${COVERAGE[$harness]:--}" "${CORPUS[$harness]:--}" "${SECONDS_RUN[$harness]:--}" \
            "${build/undefined/fast}"
    done
}

# Runs every file of Corpus/regressions/ through each harness once.
replay_regressions() {
    local files=() harness log kind
    mapfile -t files < <(find "$ROOT/Corpus/regressions" -type f ! -name '*.md' | sort)
    echo "fuzz.sh: replaying ${#files[@]} regression input(s) through ${#HARNESSES[@]} harnesses"
    [ ${#files[@]} -eq 0 ] && return 0
    mkdir -p "$WORK/logs" "$WORK/artifacts"
    for harness in "${HARNESSES[@]}"; do
        log=$WORK/logs/regressions-$harness.log
        local flags
        mapfile -t flags < <(common_flags "$harness" | grep -v -- '-max_len=')
        "$BIN/$harness" "${flags[@]}" -runs=1 "${files[@]}" >"$log" 2>&1
        kind=$(classify "$log" "$?" "${#files[@]}")
        if [ "$kind" != "$OK" ]; then
            local failing
            failing=$(grep "^Running: " "$log" | tail -1 | sed 's/^Running: //')
            FAILED=1
            echo
            echo "fuzz.sh: regression input fails in $harness: $kind"
            grep -E -A12 "rcpt fuzz oracle failure|ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error:" \
                "$log" | head -30 | sed 's/^/    /'
            did_not_run "$kind" && head -8 "$log" | sed 's/^/    /'
            if [ -n "$failing" ]; then
                echo "  reproducer: $failing"
                echo "  replay:     scripts/fuzz.sh --replay $harness $failing"
            fi
            echo "  full log:   $log"
        else
            echo "  $harness: ${#files[@]} $OK"
        fi
    done
}

mkdir -p "$WORK"
case "$mode" in
    build)
        build_harnesses "${HARNESSES[@]}" "${BASELINES[@]}" "${TEMPLATES[@]}"
        ;;
    fuzz)
        [ -z "$time_budget" ] && [ -z "$runs" ] && time_budget=60
        # Each harness in its own build (fuzz_flavour: jws-verify and status in the fast one), unless --asan or --ubsan.
        for flavour in address undefined; do
            group=()
            for harness in "${selected[@]}"; do
                [ "$(fuzz_flavour "$harness" "$sanitizer")" = "$flavour" ] && group+=("$harness")
            done
            [ ${#group[@]} -eq 0 ] && continue
            use_flavour "$flavour"
            [ "$build" = 1 ] && build_harnesses "${group[@]}"
            for harness in "${group[@]}"; do
                BUILT_WITH[$harness]=$flavour
                fuzz_one "$harness" "$time_budget" "$runs"
            done
        done
        print_summary "${selected[@]}"
        [ "$FAILED" = 0 ] && echo "fuzz.sh: no crash, leak, timeout or OOM"
        ;;
    regressions)
        [ "$build" = 1 ] && build_harnesses "${HARNESSES[@]}"
        replay_regressions
        ;;
    replay)
        [ ${#replay_files[@]} -gt 0 ] || { echo "fuzz.sh: --replay HARNESS FILE..." >&2; exit 2; }
        [ -x "$BIN/${selected[0]}" ] || build_harnesses "${selected[0]}"
        mapfile -t flags < <(common_flags "${selected[0]}" | grep -v -- '-max_len=')
        "$BIN/${selected[0]}" "${flags[@]}" -runs=1 "${replay_files[@]}"
        exit $?
        ;;
    merge)
        [ "$build" = 1 ] && build_harnesses "${selected[@]}"
        for harness in "${selected[@]}"; do
            corpus=$WORK/corpus/$harness
            mkdir -p "$corpus"
            merged=$(mktemp -d "$WORK/merge-$harness.XXXX")
            mapfile -t flags < <(common_flags "$harness")
            before=$(find "$corpus" -type f | wc -l)
            "$BIN/$harness" "${flags[@]}" -merge=1 "$merged" "$corpus" "$ROOT/Corpus/fuzz/$harness" \
                >"$WORK/logs/merge-$harness.log" 2>&1 || { echo "fuzz.sh: merge of $harness failed" >&2; FAILED=1; }
            rm -rf "$corpus" && mv "$merged" "$corpus"
            echo "fuzz.sh: $harness: working corpus $before → $(find "$corpus" -type f | wc -l) inputs"
        done
        ;;
    minimize)
        harness=$minimize_harness
        if [ -z "$harness" ]; then
            name=$(basename "$minimize_input")
            for candidate in "${HARNESSES[@]}"; do
                case "$name" in "$candidate"-*) harness=$candidate ;; esac
            done
        fi
        if [ -z "$harness" ]; then
            echo "fuzz.sh: cannot tell the harness from $minimize_input; pass --harness" >&2
            exit 2
        fi
        [ -x "$BIN/$harness" ] || build_harnesses "$harness"
        mkdir -p "$WORK/artifacts"
        output=$WORK/artifacts/$harness-minimized-$(basename "$minimize_input")
        mapfile -t flags < <(common_flags "$harness" | grep -v -- '-artifact_prefix=')
        "$BIN/$harness" "${flags[@]}" -minimize_crash=1 -max_total_time="${time_budget:-60}" \
            -exact_artifact_path="$output" "$minimize_input" >"$WORK/logs/minimize-$harness.log" 2>&1
        [ -f "$output" ] || { echo "fuzz.sh: minimisation produced nothing (does the input crash?)" >&2; exit 1; }
        echo "fuzz.sh: minimised $(wc -c <"$minimize_input") → $(wc -c <"$output") bytes: $output"
        echo "  keep it: cp $output Corpus/regressions/$harness-<what-it-is>.bin"
        ;;
    ci)
        started=$(date +%s)
        use_flavour "${sanitizer:-address}"
        WORK=$(mktemp -d "${TMPDIR:-/tmp}/rcpt-fuzz-ci.XXXX")
        build_harnesses "${HARNESSES[@]}" "${TEMPLATES[@]}"
        replay_regressions
        for harness in "${HARNESSES[@]}"; do fuzz_one "$harness" "$CI_BURST_SECONDS" ""; done
        print_summary "${HARNESSES[@]}"
        echo "fuzz.sh: --ci took $(( $(date +%s) - started )) s"
        if [ "$FAILED" = 0 ]; then
            echo "fuzz.sh: no crash, leak, timeout or OOM"
            rm -rf "$WORK"
        else
            # Kept where a CI job uploads them from (.github/workflows/ci.yml: out/fuzz-findings).
            mkdir -p "$ROOT/out/fuzz-findings"
            cp -r "$WORK/artifacts" "$WORK/logs" "$ROOT/out/fuzz-findings/" 2>/dev/null || true
            echo "fuzz.sh: FAILED; reproducers and logs are in $WORK, copied to out/fuzz-findings/"
        fi
        ;;
esac
exit $FAILED
