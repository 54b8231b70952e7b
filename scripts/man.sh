#!/usr/bin/env bash
# Regenerates the man pages in docs/man/ from the command line's own help (swift-argument-parser's
# generate-manual plugin), one page per subcommand. Run it after changing a command's options or help.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p docs/man
swift package --allow-writing-to-package-directory generate-manual --multi-page --date "$(date -u +%Y-%m-%d)" \
    --output-directory "$PWD/docs/man"
