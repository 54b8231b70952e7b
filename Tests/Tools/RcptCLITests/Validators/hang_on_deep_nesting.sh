#!/bin/sh
# A deliberately broken validator (TEST FIXTURE): `rcpt verify` with the given options ($1 rcpt, $2 root, $3 bundle
# id, $4 app version, $5 device, $6 the input), except that it never returns on sixteen nested indefinite-length
# SEQUENCEs (30 80 repeated), as a recursive parser might.
if LC_ALL=C grep -qaF "$(printf '\060\200\060\200\060\200\060\200\060\200\060\200\060\200\060\200\060\200\060\200\060\200\060\200\060\200\060\200\060\200\060\200')" "$6"; then
    exec sleep 600
fi
exec "$1" verify --root "$2" --bundle-id "$3" --app-version "$4" --device-id "$5" "$6" >/dev/null
