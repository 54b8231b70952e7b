import ReceiptASN1
import ReceiptBuilding
import ReceiptDiagnostics
import ReceiptPKCS7
import ReceiptTestSupport
import Testing

@testable import ReceiptModel

/// One hand-made payload flaw and the finding (or read error) the model must report for it.
struct PayloadFlaw: Sendable, CustomTestStringConvertible {
    var name: String
    var code: String
    var payload: @Sendable () -> [UInt8]
    var testDescription: String { name }
}

@Suite("Malformed payloads are findings, not crashes")
struct MalformedPayloadTests {
    static let flaws: [PayloadFlaw] = [
        PayloadFlaw(name: "attribute with two fields", code: "attribute-field-count") {
            UnsignedReceipts.set(
                UnsignedReceipts.basics + [
                    UnsignedReceipts.attribute {
                        $0.appendInteger(2)
                        $0.appendInteger(1)
                    }
                ])
        },
        PayloadFlaw(name: "attribute with four fields", code: "attribute-field-count") {
            UnsignedReceipts.set(
                UnsignedReceipts.basics + [
                    UnsignedReceipts.attribute {
                        $0.appendInteger(2)
                        $0.appendInteger(1)
                        $0.appendOctetString([0x0C, 0x00])
                        $0.appendNull()
                    }
                ])
        },
        PayloadFlaw(name: "type of 9 bytes", code: "attribute-type-out-of-range") {
            UnsignedReceipts.set(
                UnsignedReceipts.basics + [
                    UnsignedReceipts.attribute {
                        $0.appendIntegerContent([0x00, 0x80, 0, 0, 0, 0, 0, 0, 0])
                        $0.appendInteger(1)
                        $0.appendOctetString([])
                    }
                ])
        },
        PayloadFlaw(name: "type not an INTEGER", code: "attribute-type-not-integer") {
            UnsignedReceipts.set(
                UnsignedReceipts.basics + [
                    UnsignedReceipts.attribute {
                        $0.appendUTF8String("2")
                        $0.appendInteger(1)
                        $0.appendOctetString([])
                    }
                ])
        },
        PayloadFlaw(name: "value not an OCTET STRING", code: "attribute-value-not-octet-string") {
            UnsignedReceipts.set(
                UnsignedReceipts.basics + [
                    UnsignedReceipts.attribute {
                        $0.appendInteger(2)
                        $0.appendInteger(1)
                        $0.appendUTF8String("com.evil")
                    }
                ])
        },
        PayloadFlaw(name: "attribute not a SEQUENCE", code: "attribute-not-sequence") {
            UnsignedReceipts.set(UnsignedReceipts.basics + [[0x31, 0x03, 0x02, 0x01, 0x02]])
        },
        PayloadFlaw(name: "payload is a SEQUENCE", code: "payload-not-set") {
            var bytes = UnsignedReceipts.set(UnsignedReceipts.basics)
            bytes[0] = 0x30
            return bytes
        },
        PayloadFlaw(name: "duplicate bundle id", code: "duplicate-attribute") {
            UnsignedReceipts.set(UnsignedReceipts.basics + [AttributeSpec.utf8(2, "com.other.app").encoded])
        },
        PayloadFlaw(name: "invalid UTF-8", code: "value-invalid-utf8") {
            UnsignedReceipts.set(UnsignedReceipts.basics + [AttributeSpec.raw(19, [0x0C, 0x02, 0xC3, 0x28]).encoded])
        },
        PayloadFlaw(name: "date with trailing junk", code: "value-invalid-date") {
            UnsignedReceipts.set([AttributeSpec.ia5(21, "2024-01-01T00:00:00Z\u{0}junk").encoded])
        },
        PayloadFlaw(name: "flag of 2", code: "value-flag-out-of-range") {
            UnsignedReceipts.set([AttributeSpec.record([.integer(1713, 2)]).encoded])
        },
        PayloadFlaw(name: "record not a SET", code: "record-not-set") {
            UnsignedReceipts.set([AttributeSpec(type: 17, value: [0x30, 0x00]).encoded])
        },
        PayloadFlaw(name: "empty record", code: "record-empty") {
            UnsignedReceipts.set([AttributeSpec(type: 17, value: [0x31, 0x00]).encoded])
        },
        PayloadFlaw(name: "damaged record", code: "record-malformed") {
            UnsignedReceipts.set([AttributeSpec(type: 17, value: [0x31, 0x04, 0x30, 0x09, 0x02, 0x01]).encoded])
        },
        PayloadFlaw(name: "value that is not ASN.1", code: "value-not-asn1") {
            UnsignedReceipts.set([AttributeSpec.raw(2, [0xFF, 0xFF, 0xFF]).encoded])
        },
        PayloadFlaw(name: "trailing bytes after the SET", code: "payload-trailing-bytes") {
            UnsignedReceipts.set(UnsignedReceipts.basics) + [0x00]
        },
        PayloadFlaw(name: "unsorted SET", code: "ber-unsorted-set") {
            UnsignedReceipts.set(UnsignedReceipts.basics.reversed())
        },
    ]

    @Test(arguments: flaws)
    func reportsEachFlawAsAFindingWithItsOffset(_ flaw: PayloadFlaw) throws {
        for layout in ContainerLayout.allCases {
            let receipt = Receipt.read(UnsignedReceipts.wrap(flaw.payload(), layout: layout))
            let finding = receipt.findings.first { $0.code == flaw.code }
            #expect(finding != nil, "\(layout): \(receipt.findings.map(\.code))")
            if let offset = finding?.offset {
                #expect(offset >= 0 && offset < receipt.bytes.count)
            }
            _ = Rendered(receipt)
        }
    }

    @Test func keepsDuplicatesAndUnknownTypesInOrder() throws {
        let payload = UnsignedReceipts.set([
            AttributeSpec.utf8(2, "first.app").encoded, AttributeSpec.raw(99, [0xDE, 0xAD]).encoded,
            AttributeSpec.utf8(2, "second.app").encoded,
        ])
        let receipt = Receipt.read(UnsignedReceipts.wrap(payload))
        #expect(receipt.attributes.map(\.type) == [2, 99, 2])
        #expect(receipt.attributes.map(\.value) == [.text("first.app"), .raw, .text("second.app")])
        #expect(receipt.attributes[1].descriptor == nil)
    }

    /// A second copy of a type the verdict rests on is an error even where Apple does not document the type:
    /// receipt_type decides who may sign (a StoreKit-signed receipt saying "Xcode" first and "Production" second
    /// was valid), app_item_id the app. A second copy of another undocumented type stays a warning.
    @Test func aDuplicateOfATypeTheVerdictRestsOnIsAnError() throws {
        for (type, severity) in [(Int64(0), Severity.error), (1, .error), (2, .error), (10, .warning)] {
            let payload = UnsignedReceipts.set(
                UnsignedReceipts.basics + [
                    AttributeSpec.utf8(type, "Xcode").encoded, AttributeSpec.utf8(type, "Production").encoded,
                ])
            let receipt = Receipt.read(UnsignedReceipts.wrap(payload))
            let duplicates = receipt.findings.filter { $0.code == "duplicate-attribute" }
            #expect(!duplicates.isEmpty, "type \(type)")
            #expect(duplicates.allSatisfy { $0.severity == severity }, "type \(type): \(duplicates)")
        }
    }

    @Test func readsARecordNestedInARecordWithoutRecursingFurther() throws {
        let inner = AttributeSpec.record([.utf8(1702, "inner.product")])
        let outer = AttributeSpec.record([.utf8(1702, "outer.product"), inner])
        let receipt = Receipt.read(UnsignedReceipts.wrap(UnsignedReceipts.set([outer.encoded])))
        let record = try #require(receipt.inAppRecords.first)
        #expect(record.first(1702)?.value == .text("outer.product"))
        #expect(record.first(17)?.value == .raw)  // type 17 inside a record is unknown there
        #expect(receipt.inAppRecords.count == 1)
    }

    @Test func rejectsNestingBombsAtEveryLayer() {
        let bomb = Array(repeating: [UInt8]([0x30, 0x80]), count: 100_000).flatMap { $0 }
        let receipt = Receipt.read(bomb)
        #expect(receipt.error?.code == "asn1-depth-limit")
        // The same bomb as the content of a well-formed container.
        let wrapped = Receipt.read(UnsignedReceipts.wrap(bomb + Array(repeating: 0, count: 200_000)))
        #expect(wrapped.error?.code == "asn1-depth-limit")
        _ = Rendered(wrapped)
    }

    @Test func mapsOffsetsOfSegmentedContentBackToTheFile() throws {
        let payload = UnsignedReceipts.set(UnsignedReceipts.basics)
        // Split the content into three segments of a constructed OCTET STRING by hand.
        var content = ASN1Writer()
        content.appendIndefinite(ASN1Tag.octetString.withConstructed(true)) { writer in
            writer.appendOctetString(payload[0..<5])
            writer.appendOctetString(payload[5..<20])
            writer.appendOctetString(payload[20...])
        }
        var file = UnsignedReceipts.wrap(payload, layout: .ber)
        let original = Receipt.read(file)
        let octets = try #require(original.signedData.encapsulatedContent?.octetString)
        file.replaceSubrange(octets.encodingRange, with: content.bytes)
        let receipt = Receipt.read(file)
        #expect(receipt.error == nil, "\(receipt)")
        #expect(receipt.signedData.encapsulatedContent?.segments.count == 3)
        for attribute in receipt.attributes {
            // Each attribute SEQUENCE's first byte in the file is 0x30, at the absolute offset reported.
            #expect(file[attribute.offset] == 0x30, "\(attribute.name) at \(attribute.offset)")
        }
        #expect(receipt.first(2)?.value == .text("com.example.app"))
    }
}

/// A read error keeps its cause typed: what stopped the read is matched on, never on its message.
@Suite("Read errors keep their typed cause")
struct ReadErrorCauseTests {
    @Test func eachLayerNamesItsCause() throws {
        let truncated = Receipt.read([0x30, 0x82, 0x10])
        guard case .container(let container)? = truncated.error?.cause else {
            Issue.record("a cut container is a container error: \(String(describing: truncated.error))")
            return
        }
        #expect(container.code == truncated.error?.code)

        let notSet = Receipt.read(UnsignedReceipts.wrap([0x02, 0x01, 0x05]))
        #expect(notSet.error?.cause == .payloadShape && notSet.error?.code == "payload-not-set")

        let damaged = Receipt.read(UnsignedReceipts.wrap([0x31, 0x05, 0x30, 0x09, 0x02, 0x01, 0x02]))
        guard case .encoding(let asn1)? = damaged.error?.cause else {
            Issue.record("an overrunning attribute is an ASN.1 error: \(String(describing: damaged.error))")
            return
        }
        #expect(asn1.code == damaged.error?.code)

        let payload = [UInt8](repeating: 0x31, count: 64)
        let tooLarge = PayloadReader.read(
            file: payload, segments: [0..<64], depth: 0, limits: .default, nodesRead: 0,
            truncated: false, scope: .receipt, maximumBufferSize: 63)
        #expect(tooLarge.error?.code == "payload-too-large" && tooLarge.error?.cause == .payloadShape)
        #expect(tooLarge.attributes.isEmpty && tooLarge.index.entryCount == 0)

        let input = ReceiptReadError(input: InputError(.inputEmpty, "the input is empty"))
        #expect(input.cause == .input(InputError(.inputEmpty, "the input is empty")) && input.layer == .input)
    }
}
