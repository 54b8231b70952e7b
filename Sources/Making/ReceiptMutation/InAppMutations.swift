import ReceiptBuilding
import ReceiptDiagnostics
import ReceiptModel
import ReceiptSuite

/// Flaws in type-17 in-app purchase records (a plausible record is added first when the input has none).
enum InAppMutations {
    static let all: [Mutation] =
        [
            Mutation(
                "subscription-expired", .inApp, layer: "record", expected: .accept,
                finding: .subscriptionExpired,
                "the first record is a subscription of its own product that expired before the receipt was created"
            ) {
                workspace in
                let created = workspace.creationSeconds
                let product = workspace.bundleID + ".expired-subscription"
                workspace.blueprint.editFirstRecord { record in
                    set(&record, .utf8(1702, product))
                    set(&record, .ia5(1704, ReceiptDate.format(epochSeconds: created - 31 * DateMutations.day)))
                    set(&record, .ia5(1708, ReceiptDate.format(epochSeconds: created - DateMutations.day)))
                }
            },
            Mutation(
                "purchase-cancelled", .inApp, layer: "record", expected: .accept, finding: .purchaseCancelled,
                "the first record carries a cancellation (refund) date"
            ) { workspace in
                let created = workspace.creationSeconds
                workspace.blueprint.editFirstRecord { record in
                    set(&record, .ia5(1712, ReceiptDate.format(epochSeconds: created - DateMutations.day)))
                }
            },
            Mutation(
                "expiry-before-purchase", .inApp, layer: "record", expected: .reject,
                finding: .expiryBeforePurchase, "the first record expires before it was purchased"
            ) { workspace in
                let created = workspace.creationSeconds
                workspace.blueprint.editFirstRecord { record in
                    set(&record, .ia5(1704, ReceiptDate.format(epochSeconds: created - DateMutations.day)))
                    set(&record, .ia5(1708, ReceiptDate.format(epochSeconds: created - 2 * DateMutations.day)))
                }
            },
            Mutation(
                "record-empty", .inApp, layer: "record", expected: .accept, finding: .recordEmpty,
                "an extra in-app record with no attributes"
            ) { workspace in
                workspace.blueprint.attributes.append(AttributeSpec(type: 17, value: [0x31, 0x00]))
            },
            Mutation(
                "record-not-set", .inApp, layer: "record", expected: .reject, finding: .recordNotSet,
                "an in-app record that is a SEQUENCE instead of a SET"
            ) { workspace in
                workspace.blueprint.editFirstRecord { _ in }
                guard let index = workspace.blueprint.attributes.firstIndex(where: { $0.type == 17 }) else { return }
                workspace.blueprint.attributes[index].value[0] = 0x30
            },
            Mutation(
                "record-nested", .inApp, layer: "record", expected: .accept, finding: nil,
                "the first record holds another record (type 17) inside it"
            ) { workspace in
                workspace.blueprint.editFirstRecord { record in
                    record.append(
                        .record(
                            ReceiptBlueprint.plausibleRecord(
                                bundleID: "com.attacker.app",
                                transaction: "1000000000000999")))
                }
            },
            Mutation(
                "duplicate-transaction-id", .inApp, layer: "record", expected: .reject,
                finding: .duplicateTransactionId,
                "a second record repeats the first record's transaction id"
            ) { workspace in
                workspace.blueprint.editFirstRecord { _ in }
                guard let first = workspace.blueprint.attributes.first(where: { $0.type == 17 }),
                    var copy = ReceiptBlueprint.decodeRecord(first.value)
                else { return }
                set(&copy, .utf8(1702, workspace.bundleID + ".other"))
                workspace.blueprint.attributes.append(.record(copy))
            },
            Mutation(
                "purchase-after-creation", .inApp, layer: "record", expected: .reject,
                finding: .purchaseAfterCreation,
                "the first record's purchase date is a day after the receipt's creation (a backdated receipt)"
            ) {
                workspace in
                appStoreEnvironment(&workspace)
                let created = workspace.creationSeconds
                workspace.blueprint.editFirstRecord { record in
                    set(&record, .ia5(1704, ReceiptDate.format(epochSeconds: created + DateMutations.day)))
                    set(&record, .ia5(1708, ReceiptDate.format(epochSeconds: created + 31 * DateMutations.day)))
                }
            },
            Mutation(
                "cancellation-after-creation", .inApp, layer: "record", expected: .reject,
                finding: .purchaseAfterCreation,
                "the first record was cancelled a day after the receipt was created"
            ) { workspace in
                appStoreEnvironment(&workspace)
                let created = workspace.creationSeconds
                workspace.blueprint.editFirstRecord { record in
                    set(&record, .ia5(1712, ReceiptDate.format(epochSeconds: created + DateMutations.day)))
                }
            },
            Mutation(
                "purchase-after-creation-xcode", .inApp, layer: "record", expected: .accept,
                finding: .purchaseAfterCreation,
                "an Xcode receipt whose first purchase is an hour after its creation (Xcode writes local times with Z): a warning"
            ) {
                workspace in
                workspace.setText(0, "Xcode")
                let created = workspace.creationSeconds
                workspace.blueprint.editFirstRecord { record in
                    set(&record, .ia5(1704, ReceiptDate.format(epochSeconds: created + 3600)))
                    set(&record, .ia5(1708, ReceiptDate.format(epochSeconds: created + 31 * DateMutations.day)))
                }
            },
            Mutation(
                "duplicate-transaction-id-as-integer", .inApp, layer: "record", expected: .reject,
                finding: .duplicateTransactionId,
                "a second record repeats the first record's transaction id as an INTEGER instead of a UTF8String"
            ) {
                workspace in
                workspace.blueprint.editFirstRecord { set(&$0, .utf8(1703, "1000000000000042")) }
                guard let first = workspace.blueprint.attributes.first(where: { $0.type == 17 }),
                    var copy = ReceiptBlueprint.decodeRecord(first.value)
                else { return }
                set(&copy, .utf8(1702, workspace.bundleID + ".other"))
                set(&copy, .integer(1703, 1_000_000_000_000_042))
                workspace.blueprint.attributes.append(.record(copy))
            },
            Mutation(
                "duplicate-transaction-id-as-octets", .inApp, layer: "record", expected: .reject,
                finding: .duplicateTransactionId,
                "a second record repeats the first record's transaction id as bare OCTET STRING bytes"
            ) { workspace in
                workspace.blueprint.editFirstRecord { set(&$0, .utf8(1703, "1000000000000043")) }
                guard let first = workspace.blueprint.attributes.first(where: { $0.type == 17 }),
                    var copy = ReceiptBlueprint.decodeRecord(first.value)
                else { return }
                set(&copy, .utf8(1702, workspace.bundleID + ".other"))
                set(&copy, .raw(1703, Array("1000000000000043".utf8)))
                workspace.blueprint.attributes.append(.record(copy))
            },
            Mutation(
                "product-type-out-of-range", .inApp, layer: "record", expected: .accept, finding: nil,
                "the undocumented product type (1707) is 99"
            ) { workspace in
                workspace.blueprint.editFirstRecord { set(&$0, .integer(1707, 99)) }
            },
            Mutation(
                "product-of-another-app", .inApp, layer: "record", expected: .accept, finding: nil,
                "the first record's product id belongs to another app (only the app can tell)"
            ) { workspace in
                workspace.blueprint.editFirstRecord { set(&$0, .utf8(1702, "com.attacker.app.lifetime")) }
            },
        ]
        + [("zero", Int64(0)), ("negative", -1), ("huge", Int64(Int32.max))].map { label, quantity in
            Mutation(
                "quantity-\(label)", .inApp, layer: "record", expected: .reject, finding: .quantityOutOfRange,
                "the first record's quantity is \(quantity)"
            ) { workspace in
                workspace.blueprint.editFirstRecord { set(&$0, .integer(1701, quantity)) }
            }
        }
        + [
            Mutation(
                "quantity-beyond-64-bits", .inApp, layer: "record", expected: .reject, finding: .quantityOutOfRange,
                "the first record's quantity is 2^64, an INTEGER no 64-bit reader holds (one that wraps reads 0)"
            ) { workspace in
                // 02 09 01 00 … 00: 2^64, minimal DER.
                let value: [UInt8] = [0x02, 0x09, 0x01] + [UInt8](repeating: 0, count: 8)
                workspace.blueprint.editFirstRecord { set(&$0, AttributeSpec(type: 1701, value: value)) }
            }
        ]
        + [("two", Int64(2)), ("minus-one", -1)].map { label, flag in
            Mutation(
                "trial-flag-\(label)", .inApp, layer: "record", expected: .reject,
                finding: .valueFlagOutOfRange, "the first record's is_trial_period flag is \(flag)"
            ) {
                workspace in
                workspace.blueprint.editFirstRecord { set(&$0, .integer(1713, flag)) }
            }
        }

    /// Makes an Xcode receipt an App Store one (the rules for dates after creation are stricter there).
    static func appStoreEnvironment(_ workspace: inout MutationWorkspace) {
        if workspace.blueprint.text(0) == "Xcode" { workspace.setText(0, "ProductionSandbox") }
    }

    /// Replaces the first attribute of the spec's type in a record, or appends it.
    static func set(_ record: inout [AttributeSpec], _ spec: AttributeSpec) {
        if let index = record.firstIndex(where: { $0.type == spec.type }) {
            record[index] = spec
        } else {
            record.append(spec)
        }
    }
}
