#!/bin/sh
# A careful validator of two apps (TEST FIXTURE): `rcpt verify` of $5 with the expectations of either app.
# $1 rcpt, $2 root, $3 device, $4 "bundle:version bundle:version", $5 the input.
for app in $4; do
    if "$1" verify --root "$2" --device-id "$3" --bundle-id "${app%%:*}" --app-version "${app#*:}" "$5" >/dev/null 2>&1; then
        exit 0
    fi
done
exit 1
