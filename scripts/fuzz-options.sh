# Sourced by scripts/fuzz.sh, scripts/fuzz-bench.sh and scripts/fuzz-speed.sh: how the ASan harnesses are built and
# run, and a harness's libFuzzer flags from its committed Corpus/fuzz/<harness>.options (OSS-Fuzz's format: a
# [libfuzzer] section of `name = value` lines) and its dictionary, so every run of a harness (CI, a long campaign,
# the planted-bug benchmark, the speed measure) builds and fuzzes it the same way.

# The ASan build: both sanitizer flags (with `--sanitize=fuzzer` alone the library targets are not instrumented and
# `cov:` stays flat). Tried and not adopted (2026-11-29, Fuzz/README.md): ASan's checks as calls
# (`-Xswiftc -Xllvm -Xswiftc -asan-instrumentation-with-call-threshold=0`), so that SanitizerCoverage, which swiftc
# runs after ASan, traces no inline shadow test: jws-verify +8–12 % execs per CPU-second, but the planted-bug
# benchmark showed no gain (9 of 9, median 12.2 s; ber-length 81.7 s, date-leap-offset 35.1 s, slower than before).
FUZZ_ASAN_BUILD_FLAGS=(--sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address)
# The fast build (scripts/fuzz.sh --ubsan): libFuzzer's coverage without ASan, and clang's UBSan on the C compiled
# into the harnesses (the COpenSSL shim). swiftc has no UBSan on Linux; Swift code traps on out-of-bounds access,
# overflow and unwrap in every build.
FUZZ_FAST_BUILD_FLAGS=(--sanitize=fuzzer -Xswiftc -sanitize=fuzzer -Xcc -fsanitize=undefined
                       -Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined)
# The harnesses whose campaigns (scripts/fuzz.sh HARNESS, the planted-bug benchmark, scripts/fuzz-speed.sh) run in
# the fast build unless --asan asks otherwise: jws-verify, and status (the same tokens, judged for what a customer
# owns). Their findings are wrong verdicts their oracles see (a token re-signed, a claim read otherwise), not memory
# errors, and under ASan jws-verify spends half its time in ASan (its shadow tests traced as comparisons, its
# allocator): issue #40 asks it to be fast. The code they run is Swift, which traps on every out-of-bounds access in
# any build; the reading code under them is fuzzed under ASan by `jws` and `classifier`; `--ci` builds every harness
# with ASan and replays Corpus/regressions/ through them so.
FUZZ_FAST_HARNESSES=(jws-verify status)

# fuzz_flavour HARNESS [FORCED]: the build a campaign of HARNESS runs in: FORCED (address or undefined) when given,
# else undefined for the fast harnesses and address for the others.
fuzz_flavour() {
    local harness
    [ -n "${2:-}" ] && { echo "$2"; return; }
    for harness in "${FUZZ_FAST_HARNESSES[@]}"; do
        [ "$harness" = "$1" ] && { echo undefined; return; }
    done
    echo address
}
# ASan at run time. A 64 MB quarantine (ASan's default is 256 MB): twice, 8–9 minutes into a campaign on a loaded
# machine, recycling the full default quarantine inside one free() took over a second and libFuzzer reported a
# timeout on inputs that replay in 50 ms. Smaller batches recycle sooner and faster; use-after-free detection keeps
# a 64 MB window.
FUZZ_ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:quarantine_size_mb=64

# fuzz_option HARNESS NAME DEFAULT: one option's value.
fuzz_option() {
    local value
    value=$(sed -n "s/^$2 = //p" "$ROOT/Corpus/fuzz/$1.options" 2>/dev/null)
    echo "${value:-$3}"
}

# fuzz_option_flags HARNESS [BINARY WORDS_DIR]: -name=value for every option (max_len 4096 when none is given) and
# -dict= for the dictionary, one per line. Given the harness binary, the dictionary is the committed one with the
# words the binary's code compares with (scripts/fuzz-words.py), kept in WORDS_DIR and made again when the binary is
# newer: what a run that fuzzes uses; a replay needs no dictionary.
fuzz_option_flags() {
    local harness=$1 binary=${2:-} words=${3:-} options=$ROOT/Corpus/fuzz/$1.options name value
    local dictionary=$ROOT/Corpus/fuzz/$harness.dict
    echo "-max_len=$(fuzz_option "$harness" max_len 4096)"
    if [ -f "$options" ]; then
        while IFS=' =' read -r name value; do
            case "$name" in ''|'#'*|'['*|max_len|dict) continue ;; esac
            echo "-$name=$value"
        done <"$options"
    fi
    if [ -n "$binary" ] && [ -f "$dictionary" ]; then
        mkdir -p "$words"
        if [ ! -f "$words/$harness.dict" ] || [ "$binary" -nt "$words/$harness.dict" ]; then
            python3 "$ROOT/scripts/fuzz-words.py" "$binary" "$dictionary" "$words/$harness.dict" >&2
        fi
        dictionary=$words/$harness.dict
    fi
    [ -f "$dictionary" ] && echo "-dict=$dictionary"
    return 0
}

# fuzz_build_stamp SCRATCH FLAGS...: empties the build folder SCRATCH when it was built with other flags than FLAGS.
# SwiftPM rebuilds only what changed when compiler flags change, so a kept folder would mix both instrumentations
# (seen: a jws-verify with 6 934 ASan calls and 29 405 inline checks traced).
fuzz_build_stamp() {
    local scratch=$1 stamp
    shift
    stamp="$*"
    if [ -d "$scratch" ] && [ "$(cat "$scratch/fuzz-flags" 2>/dev/null)" != "$stamp" ]; then
        echo "fuzz: $scratch was built with other flags; building it again from scratch" >&2
        rm -rf "$scratch"
    fi
    mkdir -p "$scratch"
    echo "$stamp" >"$scratch/fuzz-flags"
}
