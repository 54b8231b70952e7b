#!/usr/bin/env bash
# Writes the seeds of the JWS harnesses (Corpus/fuzz/jws/, Corpus/fuzz/jws-verify/) with the rcpt CLI: the public
# samples of Corpus/jws/, and every JWS mutation of a transaction and of a notification signed by the TEST-ONLY
# chain of Corpus/fuzz/keys-jws/ (bundle id com.example.rcpt.fuzz, the jws-verify harness's expectation).
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
echo "fuzz-jws-seeds: $(ls Corpus/fuzz/jws | wc -l) jws seeds, $(ls Corpus/fuzz/jws-verify | wc -l) jws-verify seeds"
