#!/usr/bin/env bash
# Builds one customer's life with an app as the App Store would sign it, with `rcpt build --jws` and a TEST-ONLY JWS
# CA (default: Corpus/fuzz/keys-jws): StoreKit 2 transactions and renewal info inside server notifications and
# App Store Server API history responses, from 2024-01-01 (day 0):
#   day 0   SUBSCRIBED/INITIAL_BUY of .monthly (transaction 2000000000000100, expires day 30), auto-renew on
#   day 2   a Non-Consumable .pro bought (a transaction alone, as StoreKit gives it)
#   day 3-4 two Consumable .coins purchases (3 and 2), in a history response
#   day 30  DID_RENEW of .monthly (2000000000000101, expires day 60)
#   day 40  DID_CHANGE_RENEWAL_PREF/UPGRADE to .yearly (2000000000000102, expires day 406), and the history that
#           shows 2000000000000101 upgraded
#   day 50  DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED
#   day 55  REFUND of .pro (revocationReason 1)
#   day 406 EXPIRED/VOLUNTARY of .yearly (expirationIntent 1: the customer turned auto-renew off)
# Usage: scripts/status-lifecycle.sh OUT-DIR. `rcpt status --root <CA>/root.pem --at DATE OUT-DIR` then tells what
# the customer owned at any date. ECDSA signatures are randomised: a rerun changes signatures, nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."
RCPT=${RCPT:-scripts/rcpt}
KEYS=${KEYS:-Corpus/fuzz/keys-jws}
out=${1:?usage: scripts/status-lifecycle.sh OUT-DIR}
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

app=com.example.rcpt.status
day=86400000
base=1704067200000
d() { echo $((base + $1 * day)); }

# sign JSON: the compact JWS of the payload JSON.
sign() {
    printf '%s' "$1" >"$scratch/payload.json"
    "$RCPT" build --jws "$scratch/payload.json" --ca "$KEYS" -o "$scratch/token.jws" 2>/dev/null
    tr -d '\n' <"$scratch/token.jws"
}
# transaction ID ORIGINAL PRODUCT TYPE PURCHASED-DAY EXPIRES-DAY SIGNED-DAY [EXTRA-CLAIMS]
transaction() {
    local expires=""
    [ "$6" != "-" ] && expires="\"expiresDate\":$(d "$6"),"
    local group=""
    [ "$4" = "Auto-Renewable Subscription" ] && group="\"subscriptionGroupIdentifier\":\"21000001\","
    sign "{\"transactionId\":\"$1\",\"originalTransactionId\":\"$2\",\"bundleId\":\"$app\",\"productId\":\"$app.$3\",$group\"purchaseDate\":$(d "$5"),\"originalPurchaseDate\":$(d "$5"),$expires\"quantity\":${QUANTITY:-1},\"type\":\"$4\",\"inAppOwnershipType\":\"PURCHASED\",\"signedDate\":$(d "$7"),\"environment\":\"Sandbox\",\"transactionReason\":\"PURCHASE\",\"storefront\":\"USA\",\"price\":4990,\"currency\":\"USD\"${8:-}}"
}
# renewal ORIGINAL PRODUCT AUTO-RENEW-PRODUCT AUTO-RENEW-STATUS SIGNED-DAY [EXTRA-CLAIMS]
renewal() {
    sign "{\"originalTransactionId\":\"$1\",\"autoRenewProductId\":\"$app.$3\",\"productId\":\"$app.$2\",\"autoRenewStatus\":$4,\"isInBillingRetryPeriod\":false,\"signedDate\":$(d "$5"),\"environment\":\"Sandbox\",\"recentSubscriptionStartDate\":$(d 0)${6:-}}"
}
# notification FILE TYPE SUBTYPE SIGNED-DAY TRANSACTION-JWS RENEWAL-JWS
notification() {
    local subtype="" data="\"bundleId\":\"$app\",\"environment\":\"Sandbox\""
    [ "$3" != "-" ] && subtype="\"subtype\":\"$3\","
    [ -n "$5" ] && data="$data,\"signedTransactionInfo\":\"$5\""
    [ -n "$6" ] && data="$data,\"signedRenewalInfo\":\"$6\""
    local token
    token=$(sign "{\"notificationType\":\"$2\",$subtype\"notificationUUID\":\"00000000-0000-4000-8000-$(printf '%012d' $((10#$4)))\",\"data\":{$data},\"version\":\"2.0\",\"signedDate\":$(d "$4")}")
    printf '{"signedPayload":"%s"}\n' "$token" >"$out/$1"
}
# history FILE TRANSACTION-JWS…
history() {
    local file=$1 list=""
    shift
    for token in "$@"; do list="$list${list:+,}\"$token\""; done
    printf '{"revision":"1","bundleId":"%s","environment":"Sandbox","hasMore":false,"signedTransactions":[%s]}\n' "$app" "$list" >"$out/$file"
}

sub="Auto-Renewable Subscription"
notification 01-subscribed.json SUBSCRIBED INITIAL_BUY 00 \
    "$(transaction 2000000000000100 2000000000000100 monthly "$sub" 0 30 0)" \
    "$(renewal 2000000000000100 monthly monthly 1 0)"
transaction 2000000000000200 2000000000000200 pro Non-Consumable 2 - 2 >"$out/02-pro.jws"
echo >>"$out/02-pro.jws"
history 03-coins.json "$(QUANTITY=3 transaction 2000000000000300 2000000000000300 coins Consumable 3 - 4)" \
    "$(QUANTITY=2 transaction 2000000000000301 2000000000000301 coins Consumable 4 - 4)"
notification 04-renewed.json DID_RENEW - 30 \
    "$(transaction 2000000000000101 2000000000000100 monthly "$sub" 30 60 30)" \
    "$(renewal 2000000000000100 monthly monthly 1 30)"
notification 05-upgrade.json DID_CHANGE_RENEWAL_PREF UPGRADE 40 \
    "$(transaction 2000000000000102 2000000000000100 yearly "$sub" 40 406 40)" \
    "$(renewal 2000000000000100 yearly yearly 1 40)"
history 06-history.json \
    "$(transaction 2000000000000101 2000000000000100 monthly "$sub" 30 60 41 ",\"isUpgraded\":true")" \
    "$(transaction 2000000000000102 2000000000000100 yearly "$sub" 40 406 41)"
notification 07-auto-renew-off.json DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED 50 "" \
    "$(renewal 2000000000000100 yearly yearly 0 50)"
notification 08-refund-pro.json REFUND - 55 \
    "$(transaction 2000000000000200 2000000000000200 pro Non-Consumable 2 - 55 ",\"revocationDate\":$(d 55),\"revocationReason\":1")" ""
notification 09-expired.json EXPIRED VOLUNTARY 406 \
    "$(transaction 2000000000000102 2000000000000100 yearly "$sub" 40 406 406)" \
    "$(renewal 2000000000000100 yearly yearly 0 406 ",\"expirationIntent\":1")"
echo "status-lifecycle: $(ls "$out" | wc -l) documents in $out" >&2
