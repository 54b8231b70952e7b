#!/usr/bin/env bash
# Writes the seeds of the JWS harnesses (Corpus/fuzz/jws/, Corpus/fuzz/jws-verify/, Corpus/fuzz/status/) with the
# rcpt CLI: the public samples of Corpus/jws/, every JWS mutation of a transaction and of a notification signed by
# the TEST-ONLY chain of Corpus/fuzz/keys-jws/ (bundle id com.example.rcpt.fuzz, the jws-verify harness's
# expectation), and for `status` one customer's documents in Sandbox (a monthly subscription renewed, its renewal
# info, a grace period, a refunded and a family-shared non-consumable, consumables; a document of every other kind
# the status code tells apart; a notification, its body and a transaction-history response carrying them).
# ECDSA signatures are randomised: a rerun changes the signed seeds' signatures, nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."
RCPT=${RCPT:-scripts/rcpt}
KEYS=Corpus/fuzz/keys-jws
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

transaction='{"transactionId":"2000000000000001","originalTransactionId":"2000000000000001","webOrderLineItemId":"2000000000000002","bundleId":"com.example.rcpt.fuzz","productId":"com.example.rcpt.fuzz.monthly","subscriptionGroupIdentifier":"20000001","purchaseDate":1717243100000,"originalPurchaseDate":1717243100000,"expiresDate":1719835100000,"quantity":1,"type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","signedDate":1717243200000,"environment":"Sandbox","transactionReason":"PURCHASE","storefront":"USA","storefrontId":"143441"}'
echo "$transaction" | "$RCPT" build --jws - --ca "$KEYS" -o "$scratch/transaction.jws" 2>/dev/null
inner=$(tr -d '\n' <"$scratch/transaction.jws")
notification="{\"notificationType\":\"DID_RENEW\",\"notificationUUID\":\"00000000-0000-4000-8000-000000000001\",\"data\":{\"appAppleId\":1234567890,\"bundleId\":\"com.example.rcpt.fuzz\",\"bundleVersion\":\"1\",\"environment\":\"Sandbox\",\"signedTransactionInfo\":\"$inner\"},\"version\":\"2.0\",\"signedDate\":1717243200000}"
echo "$notification" | "$RCPT" build --jws - --ca "$KEYS" -o "$scratch/notification.jws" 2>/dev/null

for harness in jws jws-verify; do
    rm -rf "Corpus/fuzz/$harness"
    mkdir -p "Corpus/fuzz/$harness"
done
for input in transaction notification; do
    "$RCPT" mutate "$scratch/$input.jws" --all --ca "$KEYS" --out-dir "$scratch/suite-$input" 2>/dev/null
    for file in "$scratch/suite-$input"/*.jws; do
        name="$input-$(basename "$file")"
        cp "$file" "Corpus/fuzz/jws-verify/$name"
        cp "$file" "Corpus/fuzz/jws/$name"
    done
done
for file in Corpus/jws/*.jws Corpus/jws/*.json; do cp "$file" "Corpus/fuzz/jws/sample-$(basename "$file")"; done
printf '{"signedPayload":"%s"}' "$(tr -d '\n' <"$scratch/notification.jws")" >Corpus/fuzz/jws/body-notification.json
printf '{"signedTransactions":["%s","%s"],"hasMore":false}' "$inner" "$inner" >Corpus/fuzz/jws/body-history.json

# status: one customer's documents (TEST-ONLY signed), dated around 2024-06-15, the harness's evaluation time.
sign() { echo "$2" | "$RCPT" build --jws - --ca "$KEYS" -o "Corpus/fuzz/status/$1.jws" 2>/dev/null; }
rm -rf Corpus/fuzz/status
mkdir -p Corpus/fuzz/status
app='"bundleId":"com.example.rcpt.fuzz","environment":"Sandbox","signedDate":1717243200000'
store='"inAppOwnershipType":"PURCHASED","storefront":"USA","storefrontId":"143441"'
sign tx-sub "{\"transactionId\":\"2000000000000011\",\"originalTransactionId\":\"2000000000000010\",\"webOrderLineItemId\":\"2000000000000012\",$app,\"productId\":\"com.example.rcpt.fuzz.monthly\",\"subscriptionGroupIdentifier\":\"20000001\",\"purchaseDate\":1717243100000,\"originalPurchaseDate\":1714564700000,\"expiresDate\":1719835100000,\"quantity\":1,\"type\":\"Auto-Renewable Subscription\",$store,\"transactionReason\":\"RENEWAL\",\"price\":9990,\"currency\":\"USD\"}"
renewal='"originalTransactionId":"2000000000000010","productId":"com.example.rcpt.fuzz.monthly","autoRenewStatus":1,"environment":"Sandbox","signedDate":1717243200000,"recentSubscriptionStartDate":1714564700000'
sign renewal "{$renewal,\"autoRenewProductId\":\"com.example.rcpt.fuzz.yearly\",\"renewalDate\":1719835100000,\"renewalPrice\":99990,\"currency\":\"USD\"}"
sign renewal-grace "{$renewal,\"autoRenewProductId\":\"com.example.rcpt.fuzz.monthly\",\"isInBillingRetryPeriod\":true,\"gracePeriodExpiresDate\":1718409700000,\"expirationIntent\":2,\"renewalDate\":1717243100000}"
lifetime='"productId":"com.example.rcpt.fuzz.lifetime","purchaseDate":1717000000000,"quantity":1,"type":"Non-Consumable","transactionReason":"PURCHASE","storefront":"USA","storefrontId":"143441"'
sign tx-refunded "{\"transactionId\":\"2000000000000021\",\"originalTransactionId\":\"2000000000000021\",$app,$lifetime,\"originalPurchaseDate\":1717000000000,\"inAppOwnershipType\":\"PURCHASED\",\"revocationDate\":1717200000000,\"revocationReason\":0}"
sign tx-family "{\"transactionId\":\"2000000000000041\",\"originalTransactionId\":\"2000000000000040\",$app,$lifetime,\"originalPurchaseDate\":1716000000000,\"inAppOwnershipType\":\"FAMILY_SHARED\"}"
# A document of every kind the status code tells apart: sharing ended (reason 0, no revocationType, as older documents
# say it), a family revocation typed, a prorated refund of a consumable, an upgrade, a subscription bought with an
# introductory offer (a note) whose renewal info says it will not renew, one that has expired.
sign tx-family-revoked "{\"transactionId\":\"2000000000000051\",\"originalTransactionId\":\"2000000000000050\",$app,$lifetime,\"originalPurchaseDate\":1716000000000,\"inAppOwnershipType\":\"FAMILY_SHARED\",\"revocationDate\":1717100000000,\"revocationReason\":0}"
sign tx-family-revoke-typed "{\"transactionId\":\"2000000000000061\",\"originalTransactionId\":\"2000000000000060\",$app,$lifetime,\"originalPurchaseDate\":1716000000000,\"inAppOwnershipType\":\"FAMILY_SHARED\",\"revocationDate\":1717100000000,\"revocationReason\":0,\"revocationType\":\"FAMILY_REVOKE\"}"
sign tx-consumable-prorated "{\"transactionId\":\"2000000000000071\",\"originalTransactionId\":\"2000000000000071\",$app,\"productId\":\"com.example.rcpt.fuzz.coins\",\"purchaseDate\":1717000000000,\"originalPurchaseDate\":1717000000000,\"quantity\":4,\"type\":\"Consumable\",$store,\"transactionReason\":\"PURCHASE\",\"revocationDate\":1717100000000,\"revocationReason\":1,\"revocationType\":\"REFUND_PRORATED\",\"revocationPercentage\":50000}"
sign tx-upgraded "{\"transactionId\":\"2000000000000013\",\"originalTransactionId\":\"2000000000000010\",\"webOrderLineItemId\":\"2000000000000014\",$app,\"productId\":\"com.example.rcpt.fuzz.monthly\",\"subscriptionGroupIdentifier\":\"20000001\",\"purchaseDate\":1717243100000,\"originalPurchaseDate\":1714564700000,\"expiresDate\":1719835100000,\"quantity\":1,\"type\":\"Auto-Renewable Subscription\",$store,\"transactionReason\":\"RENEWAL\",\"isUpgraded\":true,\"revocationDate\":1717300000000}"
sign tx-offer "{\"transactionId\":\"2000000000000081\",\"originalTransactionId\":\"2000000000000080\",\"webOrderLineItemId\":\"2000000000000082\",$app,\"productId\":\"com.example.rcpt.fuzz.yearly\",\"subscriptionGroupIdentifier\":\"20000002\",\"purchaseDate\":1717243100000,\"originalPurchaseDate\":1717243100000,\"expiresDate\":1719835100000,\"quantity\":1,\"type\":\"Auto-Renewable Subscription\",$store,\"transactionReason\":\"PURCHASE\",\"offerType\":1,\"offerDiscountType\":\"FREE_TRIAL\",\"price\":0,\"currency\":\"USD\"}"
sign renewal-off "{\"originalTransactionId\":\"2000000000000080\",\"productId\":\"com.example.rcpt.fuzz.yearly\",\"autoRenewProductId\":\"com.example.rcpt.fuzz.yearly\",\"autoRenewStatus\":0,\"priceIncreaseStatus\":0,\"environment\":\"Sandbox\",\"signedDate\":1717243200000,\"recentSubscriptionStartDate\":1717243100000,\"renewalDate\":1719835100000}"
sign tx-expired "{\"transactionId\":\"2000000000000091\",\"originalTransactionId\":\"2000000000000090\",\"webOrderLineItemId\":\"2000000000000092\",$app,\"productId\":\"com.example.rcpt.fuzz.weekly\",\"subscriptionGroupIdentifier\":\"20000003\",\"purchaseDate\":1714000000000,\"originalPurchaseDate\":1714000000000,\"expiresDate\":1714604800000,\"quantity\":1,\"type\":\"Auto-Renewable Subscription\",$store,\"transactionReason\":\"PURCHASE\"}"
sign tx-consumable "{\"transactionId\":\"2000000000000031\",\"originalTransactionId\":\"2000000000000031\",$app,\"productId\":\"com.example.rcpt.fuzz.coins\",\"purchaseDate\":1717000000000,\"originalPurchaseDate\":1717000000000,\"quantity\":3,\"type\":\"Consumable\",$store,\"transactionReason\":\"PURCHASE\"}"
token() { tr -d '\n' <"Corpus/fuzz/status/$1.jws"; }
sign notification-did-renew "{\"notificationType\":\"DID_RENEW\",\"notificationUUID\":\"00000000-0000-4000-8000-000000000011\",\"data\":{\"bundleId\":\"com.example.rcpt.fuzz\",\"bundleVersion\":\"1\",\"environment\":\"Sandbox\",\"signedTransactionInfo\":\"$(token tx-sub)\",\"signedRenewalInfo\":\"$(token renewal)\",\"status\":1},\"version\":\"2.0\",\"signedDate\":1717243300000}"
printf '{"signedPayload":"%s"}' "$(token notification-did-renew)" >Corpus/fuzz/status/notification-body.json
printf '{"revision":"r1","bundleId":"com.example.rcpt.fuzz","environment":"Sandbox","hasMore":false,"signedTransactions":["%s","%s","%s"]}' \
    "$(token tx-sub)" "$(token tx-refunded)" "$(token tx-consumable)" >Corpus/fuzz/status/history-response.json
cp Corpus/fuzz/jws-verify/transaction-baseline.jws Corpus/fuzz/status/
echo "fuzz-jws-seeds: $(ls Corpus/fuzz/jws | wc -l) jws seeds, $(ls Corpus/fuzz/jws-verify | wc -l) jws-verify seeds," \
    "$(ls Corpus/fuzz/status | wc -l) status seeds"
