#!/usr/bin/env bash
# Regenerates the fuzz seeds (Corpus/fuzz/<harness>/), dictionaries (<harness>.dict) and options
# (<harness>.options) with Fuzz/Sources/fuzz-corpus, from the project's builders, FieldTable.all,
# ObjectIdentifierNames.all and Corpus/receipts/. Deterministic: a second run changes nothing.
#
#   scripts/fuzz-corpus.sh            rewrite them
#   scripts/fuzz-corpus.sh --check    exit 1 if the committed files differ from what the tool writes now
#   scripts/fuzz-corpus.sh --new-keys also replace the TEST-ONLY signing chain in Corpus/fuzz/keys/ (rarely)
#   scripts/fuzz-corpus.sh --new-foreign-keys  replace only its foreign/ chain (signed seeds do not change)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SCRATCH=$ROOT/Fuzz/.build-tools
scripts/bootstrap.sh
swift build --package-path Fuzz --scratch-path "$SCRATCH" --product fuzz-corpus >/dev/null
TOOL=$SCRATCH/debug/fuzz-corpus
case "${1:-}" in
    --check)
        fresh=$(mktemp -d)
        trap 'rm -rf "$fresh"' EXIT
        "$TOOL" "$ROOT" --out "$fresh" >/dev/null
        if diff -r -x keys "$fresh" Corpus/fuzz >/dev/null; then
            echo "fuzz-corpus: Corpus/fuzz is up to date"
        else
            diff -r -q -x keys "$fresh" Corpus/fuzz || true
            echo "fuzz-corpus: Corpus/fuzz differs from what the tool writes; run scripts/fuzz-corpus.sh" >&2
            exit 1
        fi
        ;;
    --new-keys) "$TOOL" "$ROOT" --new-keys ;;
    --new-foreign-keys) "$TOOL" "$ROOT" --new-foreign-keys ;;
    "") "$TOOL" "$ROOT" ;;
    *) echo "usage: scripts/fuzz-corpus.sh [--check|--new-keys|--new-foreign-keys]" >&2; exit 2 ;;
esac
