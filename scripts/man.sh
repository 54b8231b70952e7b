#!/usr/bin/env bash
# Regenerates the man pages in docs/man/ from the command line's own help (swift-argument-parser's
# generate-manual plugin), one page per subcommand. Run it after changing a command's options or help.
#   scripts/man.sh           rewrite docs/man/ (dated today)
#   scripts/man.sh --check   exit 1 when docs/man/ is not what the help says now (scripts/test.sh runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
generate() {  # generate DATE DIRECTORY
    swift package --allow-writing-to-package-directory generate-manual --configuration debug --multi-page --date "$1" \
        --output-directory "$2" >&2
}
if [ "${1:-}" = --check ]; then
    # Generated again with the date the committed pages carry, so only the help's content can differ.
    dated=$(date -u -d "$(sed -n 's/^\.Dd //p' docs/man/rcpt.1 | head -1)" +%Y-%m-%d)
    fresh=$(mktemp -d "$PWD/.build-man.XXXXXX")
    trap 'rm -rf "$fresh"' EXIT
    generate "$dated" "$fresh"
    if ! diff -r docs/man "$fresh" >&2; then
        echo "man: docs/man is not the commands' help any more (above): run scripts/man.sh and commit docs/man" >&2
        exit 1
    fi
    echo "man: docs/man is current" >&2
    exit 0
fi
mkdir -p docs/man
generate "$(date -u +%Y-%m-%d)" "$PWD/docs/man"
