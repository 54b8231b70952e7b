#!/usr/bin/env bash
# The planted-bug benchmark (issue #40): do the harnesses find bugs? Each patch in Fuzz/planted/ (listed with its
# harnesses in Fuzz/planted/bugs.tsv) plants one guarded crash in rcpt's code, reachable by a crafted input and
# triggered by no committed seed. For each bug, a copy of the sources (Fuzz/.build-bench/tree, synced from the working
# tree, so uncommitted changes to a harness or mutator count) gets the patch, builds the bug's harnesses (in the
# build their campaigns run in, fuzz_flavour: ASan, the fast build for jws-verify and status) and fuzzes them from
# the committed seeds, dictionaries and options for up to --time seconds each, side by side. Prints, per bug,
# whether and how fast it was found; then found/total and the median time-to-find (a bug not found counts as
# never). Figures, never a test; run it on a quiet machine.
#
# Each bug has a proof: Fuzz/planted/proofs/BUG.HARNESS, an input that reaches it through HARNESS. Before a bug is
# fuzzed, its proof must crash the patched harness with the bug's message (else the row says "bad-proof": the plant
# is not reachable as written); its seeds must not (else "in-seeds": the bug measures nothing).
#
#   scripts/fuzz-bench.sh [--time S] [--only BUG[,BUG…]] [--seed N] [--asan] [--proofs]
#
# --asan builds every harness with ASan, jws-verify too (to compare its fast build with it).
# --proofs checks the proofs only, without fuzzing: each crashes its patched harness with its bug's message, and
# none crashes the harnesses built from the unpatched tree (a proof shows the plant, not another failure); exit 1
# when a bug's proof fails either way.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
seconds=120
only=""
seed=1
forced=""
proofs_only=0
usage() {
    echo "usage: scripts/fuzz-bench.sh [--time S] [--only BUG[,BUG…]] [--seed N] [--asan] [--proofs]${1:+ ($1)}" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case "$1" in
        --time|--only|--seed)
            [ $# -ge 2 ] && [ -n "$2" ] || usage "$1 needs a value"
            case "$1" in
                --time) seconds=$2 ;;
                --only) only=$2 ;;
                --seed) seed=$2 ;;
            esac
            shift ;;
        --asan) forced=address ;;
        --proofs) proofs_only=1 ;;
        *) usage "unknown option $1" ;;
    esac
    shift
done
[[ $seconds =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || usage "--time takes a whole number of seconds"
# libFuzzer takes -seed=0 for "draw one": a run that could not be repeated.
[[ $seed =~ ^[0-9]+$ ]] && [ "$seed" -gt 0 ] || usage "--seed takes a whole number from 1"
# Every bug --only names is one Fuzz/planted/bugs.tsv lists (a misspelt name would run nothing and say 0 of 0).
if [ -n "$only" ]; then
    IFS=, read -r -a named <<<"$only"
    for bug in "${named[@]}"; do
        grep -v '^#' Fuzz/planted/bugs.tsv | cut -f1 | grep -qxF -- "$bug" || usage "no planted bug $bug in Fuzz/planted/bugs.tsv"
    done
fi
WORK=${FUZZ_BENCH_WORK:-$ROOT/Fuzz/.build-bench}
TREE=$WORK/tree
SCRATCH=$WORK/build
mkdir -p "$TREE" "$WORK/runs"
export SWIFT_BACKTRACE=enable=no
# Allocation stacks 5 frames deep (ASan's default, 30, unwinds on every malloc: a quarter of jws-verify's time).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1:quarantine_size_mb=64:malloc_context_size=5}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export RCPT_FUZZ_KEYS=$ROOT/Corpus/fuzz/keys RCPT_FUZZ_JWS_KEYS=$ROOT/Corpus/fuzz/keys-jws
"$ROOT/scripts/bootstrap.sh"
# shellcheck source=scripts/fuzz-options.sh
. "$ROOT/scripts/fuzz-options.sh"

# The copy the patches are applied to: every file the packages need, copied only when it differs (an unchanged file
# keeps its inode and time, so the next build is incremental); a file the working tree no longer has (moved or
# deleted) goes from the copy too, or the copy would build it beside its successor.
sync_tree() {
    local file
    git -c core.quotePath=off ls-files --cached --others --exclude-standard -- Package.swift Sources Tests \
        Fuzz/Package.swift Fuzz/Sources | while IFS= read -r file; do [ -f "$ROOT/$file" ] && echo "$file"; done \
        | sort >"$WORK/files"
    while IFS= read -r file; do
        if ! cmp -s "$ROOT/$file" "$TREE/$file"; then
            mkdir -p "$TREE/$(dirname "$file")"
            cp "$ROOT/$file" "$TREE/$file"
        fi
    done <"$WORK/files"
    if [ -d "$TREE" ]; then
        (cd "$TREE" && find Sources Tests Fuzz/Sources -type f 2>/dev/null | sort) | comm -23 - "$WORK/files" \
            | while IFS= read -r file; do rm -f "$TREE/$file"; done
    fi
}

# binary_of HARNESS: the harness as its campaigns run it (fuzz_flavour: ASan, or the fast build for jws-verify and
# status).
scratch_of() { if [ "$(fuzz_flavour "$1" "$forced")" = undefined ]; then echo "$SCRATCH-fast"; else echo "$SCRATCH"; fi; }
binary_of() { echo "$(scratch_of "$1")/release/$1"; }

build() {  # build HARNESS…: the harnesses from the patched copy, as scripts/fuzz.sh builds them
    local harness scratch flags
    for harness in "$@"; do
        scratch=$(scratch_of "$harness")
        if [ "$(fuzz_flavour "$harness" "$forced")" = undefined ]; then
            flags=("${FUZZ_FAST_BUILD_FLAGS[@]}")
        else
            flags=("${FUZZ_ASAN_BUILD_FLAGS[@]}")
        fi
        fuzz_build_stamp "$scratch" "${flags[@]}"
        rm -f "$scratch/release.yaml"
        if ! nice -n 10 swift build --package-path "$TREE/Fuzz" --scratch-path "$scratch" -c release \
            "${flags[@]}" --product "$harness" \
            >"$WORK/runs/build-$harness.log" 2>&1; then
            echo "fuzz-bench: building $harness failed ($WORK/runs/build-$harness.log)" >&2
            grep -E "error:" "$WORK/runs/build-$harness.log" | head -5 >&2
            return 1
        fi
    done
}

# fuzz BUG HARNESS: fuzzes from the seeds; writes "seconds found|missed" to $WORK/runs/BUG-HARNESS.result.
fuzz() {
    local bug=$1 harness=$2 corpus=$WORK/runs/$1-$2.corpus log=$WORK/runs/$1-$2.log
    local flags started status=0
    rm -rf "$corpus" && mkdir -p "$corpus"
    flags=(-max_total_time="$seconds" -seed="$seed" -timeout=5 -rss_limit_mb=2048
           -artifact_prefix="$WORK/runs/$bug-$harness-" -print_final_stats=1)
    mapfile -t -O ${#flags[@]} flags < <(fuzz_option_flags "$harness" "$(binary_of "$harness")" "$WORK/words-$bug")
    started=$(date +%s.%N)
    "$(binary_of "$harness")" "${flags[@]}" "$corpus" "$ROOT/Corpus/fuzz/$harness" >"$log" 2>&1 || status=$?
    local elapsed; elapsed=$(echo "$(date +%s.%N) - $started" | bc)
    if [ "$status" -ne 0 ] && grep -q "planted bug: $bug" "$log"; then
        echo "$elapsed found" >"$WORK/runs/$bug-$harness.result"
    else
        echo "$elapsed missed" >"$WORK/runs/$bug-$harness.result"
    fi
}

# The seeds alone must not trigger the bug (else it measures nothing).
seeds_trigger() {
    local bug=$1 harness=$2 log=$WORK/runs/$1-$2.seeds.log
    "$(binary_of "$harness")" -runs=0 -max_len=24576 "$ROOT/Corpus/fuzz/$harness" >"$log" 2>&1 && return 1
    grep -q "planted bug: $bug" "$log"
}

# proofs_of BUG: the bug's proof files (Fuzz/planted/proofs/BUG.HARNESS).
proofs_of() { find "$ROOT/Fuzz/planted/proofs" -maxdepth 1 -type f -name "$1.*" 2>/dev/null | sort; }

# proof_holds BUG: whether every proof of BUG crashes its harness (built from the patched tree) with the bug's
# message, and there is at least one.
proof_holds() {
    local bug=$1 proof harness log=$WORK/runs/$1.proof.log any=0
    while IFS= read -r proof; do
        [ -n "$proof" ] || continue
        any=1
        harness=${proof##*/"$bug".}
        "$(binary_of "$harness")" -runs=1 "$proof" >"$log" 2>&1 && return 1
        grep -q "planted bug: $bug" "$log" || return 1
    done < <(proofs_of "$bug")
    [ $any -eq 1 ]
}

sync_tree
declare -a times=()
declare -a proven=()
found=0
total=0
printf '%-24s %-22s %-8s %s\n' bug harness result seconds
while IFS=$'\t' read -r bug harnesses what; do
    [ -z "$bug" ] || [ "${bug:0:1}" = "#" ] && continue
    if [ -n "$only" ] && [[ ",$only," != *",$bug,"* ]]; then continue; fi
    total=$((total + 1))
    patch -s -p1 -d "$TREE" <"$ROOT/Fuzz/planted/$bug.patch"
    # shellcheck disable=SC2086
    if ! build $harnesses; then
        patch -s -R -p1 -d "$TREE" <"$ROOT/Fuzz/planted/$bug.patch"
        printf '%-24s %-22s %-8s %s\n' "$bug" "$harnesses" "no-build" "-"
        times+=(inf)
        continue
    fi
    patch -s -R -p1 -d "$TREE" <"$ROOT/Fuzz/planted/$bug.patch"
    if ! proof_holds "$bug"; then
        printf '%-24s %-22s %-8s %s\n' "$bug" "$harnesses" "bad-proof" "-"
        times+=(inf)
        continue
    fi
    proven+=("$bug")
    if [ $proofs_only -eq 1 ]; then
        printf '%-24s %-22s %-8s %s\n' "$bug" "$harnesses" "proof-ok" "-"
        continue
    fi
    invalid=0
    for harness in $harnesses; do
        if seeds_trigger "$bug" "$harness"; then invalid=1; fi
    done
    if [ $invalid -eq 1 ]; then
        printf '%-24s %-22s %-8s %s\n' "$bug" "$harnesses" "in-seeds" "-"
        times+=(inf)
        continue
    fi
    for harness in $harnesses; do fuzz "$bug" "$harness" & done
    wait
    best=inf
    best_harness=-
    for harness in $harnesses; do
        read -r elapsed result <"$WORK/runs/$bug-$harness.result"
        if [ "$result" = found ] && { [ "$best" = inf ] || [ "$(echo "$elapsed < $best" | bc)" -eq 1 ]; }; then
            best=$elapsed
            best_harness=$harness
        fi
    done
    if [ "$best" = inf ]; then
        printf '%-24s %-22s %-8s %s\n' "$bug" "$harnesses" "missed" ">$seconds"
    else
        found=$((found + 1))
        printf '%-24s %-22s %-8s %.1f\n' "$bug" "$best_harness" "found" "$best"
    fi
    times+=("$best")
    echo "  ($what)"
done <"$ROOT/Fuzz/planted/bugs.tsv"

if [ $proofs_only -eq 1 ]; then
    # Unpatched, no proof crashes its harness: what it shows is the plant.
    crashed=0
    for bug in ${proven[@]+"${proven[@]}"}; do
        while IFS= read -r proof; do
            harness=${proof##*/"$bug".}
            build "$harness" || exit 1
            if ! "$(binary_of "$harness")" -runs=1 "$proof" >"$WORK/runs/$bug.unpatched.log" 2>&1; then
                echo "fuzz-bench: the proof of $bug crashes $harness unpatched ($WORK/runs/$bug.unpatched.log)" >&2
                crashed=1
            fi
        done < <(proofs_of "$bug")
    done
    echo "proofs: ${#proven[@]} of $total reach their plant; unpatched, $([ $crashed -eq 0 ] && echo none || echo some) crash"
    [ ${#proven[@]} -eq "$total" ] && [ $crashed -eq 0 ]
    exit $?
fi

median=$(printf '%s\n' "${times[@]}" | sed 's/^inf$/999999/' | sort -g | awk '
    { v[NR] = $1 } END { if (NR == 0) { print "-"; exit }
      m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      if (m >= 999999) print "never"; else printf "%.1f s", m }')
echo "found $found of $total within $seconds s per harness; median time-to-find $median (seed $seed)"
