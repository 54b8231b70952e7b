#!/bin/sh
# A deliberately broken validator (TEST FIXTURE): `rcpt verify` with the given options ($1 rcpt, $2 root, $3 bundle
# id, $4 app version, $5 device, $6 the input), except that it dies of SIGSEGV on a four-octet length of 4 GB or
# more (84 FF FF FF), as a parser that allocates what a length says would.
if LC_ALL=C grep -qaF "$(printf '\204\377\377\377')" "$6"; then
    echo "validator: segmentation fault reading a length" >&2
    kill -SEGV $$
fi
exec "$1" verify --root "$2" --bundle-id "$3" --app-version "$4" --device-id "$5" "$6" >/dev/null
