#!/bin/sh
# A validator that casts (TEST FIXTURE): `rcpt verify` with the given options ($1 rcpt, $2 root, $3 bundle id, $4 app
# version, $5 device, $6 the input), except that it dies of SIGSEGV on any value of another ASN.1 type than Apple
# writes, as a parser that assumes the type would.
if "$1" verify --format json --root "$2" "$6" 2>/dev/null | grep -q '"value-unexpected-type"'; then
    kill -SEGV $$
fi
exec "$1" verify --root "$2" --bundle-id "$3" --app-version "$4" --device-id "$5" "$6" >/dev/null
