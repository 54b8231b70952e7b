#!/usr/bin/env bash
# Per-document speed (issue #38): many small documents, each at the cost of its own signature. In one run:
#  - the floor: this machine's ECDSA P-256 and RSA-2048 verification rates (`openssl speed`);
#  - rcpt verify --format jsonl over copies of the genuine Apple-signed tokens in Corpus/jws (transactions, renewal
#    info, notifications) and over copies of the real receipts in Corpus/receipts: documents per CPU-second (user +
#    system time of the whole process) and per wall second, with its ratio to the floor;
#  - Apple's own Python library (app-store-server-library, PyPI; `SignedDataVerifier`, its chain cache on, one
#    verifier per app and environment, each token with the method for its kind) over the same tokens;
#  - rcpt's library over the same tokens: `AppStoreVerifier` (one per app and environment, shared) from a task group
#    of one task per core, in-process (`rcpt-bench verifier`; RCPT_BENCH_TOOL, else built here);
#  - rcpt status over 10 000 (and, without --quick, 100 000) renewal-info files of one subscription: wall time and
#    peak memory.
# Figures, never a test. Usage: [RCPT_BENCH_BINARY=PATH] [RCPT_BENCH_TOOL=PATH] scripts/bench-documents.sh [--quick]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
quick=0
[ "${1:-}" = "--quick" ] && quick=1
"$root/scripts/bootstrap.sh"
# RCPT_BENCH_BINARY: an rcpt already built in release mode (scripts/release.sh's), instead of building one.
rcpt="${RCPT_BENCH_BINARY:-}"
if [ -z "$rcpt" ]; then
    swift build --package-path "$root" -c release --product rcpt >&2
    rcpt="$root/.build/release/rcpt"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

rate() { awk -v n="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print "-" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

# The floor: verifications per second of one core (openssl speed -mr: "+F4:i:bits:sign/s:verify/s" for ECDSA,
# "+F2:i:bits:sign/s:verify/s" for RSA).
speed=$(openssl speed -mr -seconds 2 ecdsap256 rsa2048 2>/dev/null)
p256=$(echo "$speed" | awk -F: '/^\+F4:/ && $3 == 256 { printf "%.0f", $5 }')
rsa=$(echo "$speed" | awk -F: '/^\+F2:/ && $3 == 2048 { printf "%.0f", $5 }')
echo "Floor (openssl speed, one core): ECDSA P-256 verify ${p256}/s, RSA-2048 verify ${rsa}/s"
echo

copies() {  # copies DIR N FILE...: N files in DIR, the FILEs in turn (one process: a cp a file took minutes)
    python3 - "$@" <<'PY'
import os, sys
directory, count, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
os.makedirs(directory, exist_ok=True)
contents = [open(path, "rb").read() for path in files]
for index in range(count):
    which = index % len(files)
    with open(os.path.join(directory, "%d-%s" % (index, os.path.basename(files[which]))), "wb") as out:
        out.write(contents[which])
PY
}
tokens=("$root"/Corpus/jws/gopay-*.jws "$root"/Corpus/jws/goiap-*.jws "$root"/Corpus/jws/imdhemy-notif-TEST-sandbox.jws)
receipts=()
for file in "$root"/Corpus/receipts/*.receipt; do
    case "$(basename "$file")" in apple-xcode-*|kvitto-storeKitTestReceipt*) continue ;; esac  # Xcode-signed
    receipts+=("$file")
done
n_tokens=9000; n_receipts=9000
[ $quick -eq 1 ] && n_tokens=2000 && n_receipts=2000
copies "$work/tokens" $n_tokens "${tokens[@]}"
copies "$work/receipts" $n_receipts "${receipts[@]}"

measure() {  # measure COMMAND...: "wall cpu peak-KB" of the best (least CPU) of three runs
    local best="" run
    for run in 1 2 3; do
        /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" > /dev/null 2>&1 || true
        local line; line=$(awk '{ printf "%s %.2f %s", $1, $2 + $3, $4 }' "$work/time")
        if [ -z "$best" ] || awk -v a="$line" -v b="$best" 'BEGIN { split(a, x); split(b, y); exit !(x[2] < y[2]) }'; then
            best=$line
        fi
    done
    echo "$best"
}

echo "rcpt verify --format jsonl DIR (best of three; documents per CPU-second, per wall second)"
printf '  %-34s %8s %10s %10s %10s %12s\n' workload count "CPU s" "per CPU-s" "per wall-s" "of floor"
read -r wall cpu _ < <(measure "$rcpt" verify --format jsonl "$work/tokens")
"$rcpt" verify --format jsonl "$work/tokens" 2>/dev/null >"$work/tokens.jsonl" || true
valid=$(grep -c '"valid":true' "$work/tokens.jsonl" || true)
per=$(rate $n_tokens "$cpu")
printf '  %-34s %8s %10s %10s %10s %11sx\n' "Apple-signed tokens ($valid valid)" $n_tokens "$cpu" "$per" \
    "$(rate $n_tokens "$wall")" "$(ratio "$per" "$p256")"
# A notification carries the transaction and renewal info it is about, each signed: the signatures verified (every
# token of every file, nested ones included) against the floor, which counts one signature.
signatures=$(python3 -c 'import json, sys; print(sum(len(json.loads(line).get("tokens") or []) for line in sys.stdin))' \
    <"$work/tokens.jsonl")
per=$(rate "$signatures" "$cpu")
printf '  %-34s %8s %10s %10s %10s %11sx\n' "  their ES256 signatures" "$signatures" "$cpu" "$per" \
    "$(rate "$signatures" "$wall")" "$(ratio "$per" "$p256")"
read -r wall cpu _ < <(measure "$rcpt" verify --format jsonl "$work/receipts")
valid=$("$rcpt" verify --format jsonl "$work/receipts" 2>/dev/null | grep -c '"valid":true' || true)
per=$(rate $n_receipts "$cpu")
printf '  %-34s %8s %10s %10s %10s %11sx\n' "real receipts ($valid valid)" $n_receipts "$cpu" "$per" \
    "$(rate $n_receipts "$wall")" "$(ratio "$per" "$rsa")"
echo

echo "Apple's app-store-server-library (Python), the same tokens, one process"
python3 - "$work/tokens" "$root/Corpus/certs/AppleRootCA-G3.cer" <<'PY'
import base64, json, os, sys, time
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

directory, root_path = sys.argv[1], sys.argv[2]
root = open(root_path, "rb").read()
paths = sorted(os.path.join(directory, name) for name in os.listdir(directory))
texts = [open(path).read().strip() for path in paths]

def payload(token):
    part = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))

verifiers = {}
def verifier(claims):
    scope = claims.get("data", claims)
    key = (scope.get("bundleId"), scope.get("environment", "Sandbox"), scope.get("appAppleId"))
    if key not in verifiers:
        environment = Environment(key[1]) if key[1] in ("Sandbox", "Production") else Environment.SANDBOX
        verifiers[key] = SignedDataVerifier([root], False, environment, key[0], key[2] or 0)
    return verifiers[key]

jobs = []
for text in texts:
    token = json.loads(text)["signedPayload"] if text.startswith("{") else text
    claims = payload(token)
    if "notificationType" in claims:
        jobs.append((verifier(claims).verify_and_decode_notification, token))
    elif "autoRenewStatus" in claims:
        jobs.append((verifier({"bundleId": None, "environment": claims.get("environment")}).verify_and_decode_renewal_info, token))
    else:
        jobs.append((verifier(claims).verify_and_decode_signed_transaction, token))
accepted = 0
start_cpu, start_wall = time.process_time(), time.perf_counter()
for method, token in jobs:
    try:
        method(token)
        accepted += 1
    except Exception:
        pass
cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
print("  %d tokens, %d accepted: %.2f CPU s, %.0f per CPU-second, %.0f per wall second"
      % (len(jobs), accepted, cpu, len(jobs) / cpu, len(jobs) / wall))
PY
echo

echo "rcpt's library: AppStoreVerifier from a task group (one task per core), the same tokens, one process"
tool="${RCPT_BENCH_TOOL:-}"
if [ -z "$tool" ]; then
    swift build --package-path "$root/Benchmarks" -c release >&2
    tool="$root/Benchmarks/.build/release/rcpt-bench"
fi
"$tool" verifier "$work/tokens" | awk -v floor="$p256" '{
    for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    printf "  %d tokens, %d accepted: %.2f CPU s, %.0f per CPU-second (%.2fx the floor), %.0f per wall second\n",
        v["documents"], v["accepted"], v["cpu"], v["per_cpu_s"], v["per_cpu_s"] / floor, v["per_wall_s"] }'
echo

echo "rcpt status over renewal-info files of one subscription (wall seconds / peak MB)"
sizes=(10000 100000)
[ $quick -eq 1 ] && sizes=(1000 10000)
for n in "${sizes[@]}"; do
    rm -rf "$work/status"
    copies "$work/status" "$n" "$root/Corpus/jws/gopay-renewal-2000000184445477-sandbox.jws"
    /usr/bin/time -f "%e %M" -o "$work/time" "$rcpt" status --at 2022-11-05 "$work/status" > /dev/null 2>&1 || true
    printf '  %7s files  %s\n' "$n" "$(awk '{ printf "%.2f s / %.0f MB", $1, $2 / 1024 }' "$work/time")"
done
