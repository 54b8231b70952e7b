#!/bin/sh
# A deliberately broken validator for the conformance tests: `rcpt verify` with the suite's options ($1 is rcpt,
# $2 the root, $3 the bundle id), except that it never returns on the nesting bomb, as a recursive parser might.
case "$4" in
    */nesting-bomb.receipt) exec sleep 60 ;;
esac
exec "$1" verify --root "$2" --bundle-id "$3" "$4" >/dev/null
