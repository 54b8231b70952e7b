#!/bin/sh
# Deliberately broken validators (TEST FIXTURE): $1 names how it dies, writing what that runtime writes on an
# uncaught exception to standard error and exiting with that runtime's status; $2 is the input (unused).
case "$1" in
node)
    printf '/srv/validator/validate.js:14\n    throw new Error("unexpected tag");\n    ^\n\nError: unexpected tag\n    at parse (/srv/validator/validate.js:14:11)\n    at Object.<anonymous> (/srv/validator/validate.js:30:1)\n    at node:internal/main/run_main_module:28:49\n\nNode.js v20.11.0\n' >&2
    exit 1 ;;
go)
    printf 'panic: runtime error: slice bounds out of range [:4096] with capacity 512\n\ngoroutine 1 [running]:\nmain.parse(...)\n\t/srv/validator/main.go:42 +0x1d4\nmain.main()\n\t/srv/validator/main.go:17 +0x85\nexit status 2\n' >&2
    exit 2 ;;
esac
exit 1
