#!/bin/sh
# A deliberately broken validator for the conformance tests: accepts the baseline, and dies of SIGSEGV on every
# other receipt after writing a line to standard error (as a crashing parser would).
case "$1" in
    */baseline.receipt) exit 0 ;;
esac
echo "validator: segmentation fault while parsing $1" >&2
kill -SEGV $$
