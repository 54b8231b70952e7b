import Foundation
import ReceiptDiagnostics
import ReceiptModel
import ReceiptTestSupport
import ReceiptValidation
import Testing

/// A verifyReceipt response is read for its signed `latest_receipt`; Apple's unsigned decoding beside it must name
/// the same app. A response put together around another app's genuine receipt was valid, exit 0.
@Suite("verifyReceipt response: the decoding names the signed receipt's app")
struct ResponseDecodingAgreementTests {
    /// Apple's recorded production response (its `latest_receipt` is the app's genuine receipt).
    static func response() throws -> [String: Any] {
        let bytes = try Fixtures.bytes(VerifyReceiptPairTests.directory + "griddiary-production-2017/response.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    static func inspect(_ response: [String: Any]) throws -> ReceiptInspection {
        let bytes = try JSONSerialization.data(withJSONObject: response)
        return ReceiptInspector.inspect(Array(bytes), options: InspectionOptions(anchors: try TrustAnchors.appleRoot()))
    }

    static func edited(_ member: String, _ value: Any) throws -> [String: Any] {
        var response = try response()
        var receipt = try #require(response["receipt"] as? [String: Any])
        receipt[member] = value
        response["receipt"] = receipt
        return response
    }

    @Test("Apple's own response is valid, its decoding agreeing")
    func genuine() throws {
        let inspection = try Self.inspect(try Self.response())
        #expect(inspection.isValid)
        #expect(!inspection.findings.contains { $0.kind == .responseDecodingMismatch })
    }

    /// Each member the decoding names the app with, and another value of its kind.
    static func other(_ member: String) -> Any {
        switch member {
        case "app_item_id": return 1_234_567
        case "receipt_type": return "ProductionSandbox"
        default: return "com.attacker.other"
        }
    }

    /// A red team's trial: another app's bundle id in an array (`["com.victim"] == "com.victim"` in JavaScript), or
    /// the decoding as an array of receipts, went unchecked, valid.
    @Test(
        "a decoding of another JSON type, or an array of decodings, is compared too",
        arguments: [0, 1, 2])
    func anotherShape(shape: Int) throws {
        var response = try Self.response()
        let receipt = try #require(response["receipt"] as? [String: Any])
        var other = receipt
        other["bundle_id"] = "com.attacker.other"
        switch shape {
        case 0:
            other["bundle_id"] = ["com.attacker.other"]
            response["receipt"] = other
        case 1: response["receipt"] = [other]
        default: response["receipt"] = [receipt, other]
        }
        let inspection = try Self.inspect(response)
        #expect(!inspection.isValid, "shape \(shape)")
        let finding = try #require(inspection.findings.first { $0.kind == .responseDecodingMismatch })
        // Named by where it stands: the second decoding of an array is `receipt[1]`.
        let member = ["receipt.bundle_id", "receipt[0].bundle_id", "receipt[1].bundle_id"][shape]
        #expect(finding.fields.contains { $0.name == "member" && $0.value == member }, "shape \(shape)")
        // The genuine decoding alone, as an array, agrees.
        response["receipt"] = [receipt]
        #expect(try Self.inspect(response).isValid)
    }

    /// A hostile value can be megabytes long: the message shows its first characters.
    @Test("a decoding of another JSON type is shown by its first characters")
    func longValue() throws {
        let long = Array(repeating: "com.attacker.other", count: 10_000)
        let inspection = try Self.inspect(try Self.edited("bundle_id", long))
        let finding = try #require(inspection.findings.first { $0.kind == .responseDecodingMismatch })
        #expect(finding.message.count < 1_000)
        #expect(finding.message.contains("[\"com.attacker.other\""))
        // The same string in an array agrees with nothing either.
        #expect(!(try Self.inspect(try Self.edited("bundle_id", ["com.sumiapp.GridDiary"]))).isValid)
    }

    @Test(
        "a decoding naming another app, app item id or receipt type is an error at the signed attribute",
        arguments: ["bundle_id", "app_item_id", "receipt_type"])
    func disagreeing(member: String) throws {
        let value = Self.other(member)
        let inspection = try Self.inspect(try Self.edited(member, value))
        #expect(!inspection.isValid)
        let finding = try #require(inspection.findings.first { $0.kind == .responseDecodingMismatch })
        #expect(finding.severity == .error)
        #expect(finding.fields.contains { $0.name == "member" && $0.value == "receipt.\(member)" })
        #expect(finding.message.contains("\(value)"))
        #expect(finding.offset != nil)
    }

    @Test("the same value written as a string or a number agrees; a receipt object without them is not compared")
    func sameValueOtherSpelling() throws {
        #expect(try Self.inspect(try Self.edited("app_item_id", "597077261")).isValid)
        var response = try Self.response()
        response["receipt"] = ["in_app": [Any]()]
        #expect(try Self.inspect(response).isValid)
    }

    /// Go's and .NET's readers take a member whatever its case; readers differ on which duplicate wins: every copy
    /// is compared (a red team's `"Receipt": {"bundle_id": …}` beside Apple's `receipt` was valid).
    @Test("every copy of the decoding counts, whatever the case of its name")
    func everyCopy() throws {
        var response = try Self.response()
        response["Receipt"] = ["bundle_id": "com.attacker.other"]
        let beside = try Self.inspect(response)
        #expect(!beside.isValid)
        #expect(
            beside.findings.contains {
                $0.kind == .responseDecodingMismatch && $0.fields.contains { $0.value == "Receipt.bundle_id" }
            })
        let variant = try Self.inspect(try Self.edited("Bundle_Id", "com.attacker.other"))
        #expect(
            variant.findings.contains {
                $0.kind == .responseDecodingMismatch && $0.fields.contains { $0.value == "receipt.Bundle_Id" }
            })
        // A duplicate member (JSONSerialization writes none): the first copy another app's, the last Apple's.
        let text = String(decoding: try JSONSerialization.data(withJSONObject: try Self.response()), as: UTF8.self)
        let duplicated = text.replacingOccurrences(
            of: "\"bundle_id\":\"com.sumiapp.GridDiary\"",
            with: "\"bundle_id\":\"com.attacker.other\",\"bundle_id\":\"com.sumiapp.GridDiary\"")
        #expect(duplicated != text)
        let inspection = ReceiptInspector.inspect(
            Array(duplicated.utf8), options: InspectionOptions(anchors: try TrustAnchors.appleRoot()))
        #expect(inspection.findings.contains { $0.kind == .responseDecodingMismatch })
    }

    /// Apple answers from the receipt's own environment, and with a receipt only when it accepted one.
    @Test("the response's environment and status must fit the signed receipt")
    func environmentAndStatus() throws {
        var sandbox = try Self.response()
        sandbox["environment"] = "Sandbox"
        let environment = try Self.inspect(sandbox)
        #expect(!environment.isValid)
        #expect(
            environment.findings.contains {
                $0.kind == .responseDecodingMismatch && $0.message.contains("ProductionSandbox")
            })
        for (status, valid) in [(21003, false), (21007, false), (21006, true), (0, true)] {
            var response = try Self.response()
            response["status"] = status
            #expect(try Self.inspect(response).isValid == valid, "status \(status)")
        }
    }

    @Test("a request body's receipt-data is not compared with anything beside it")
    func requestBody() throws {
        var request = try Self.response()
        request["receipt-data"] = request.removeValue(forKey: "latest_receipt")
        request["receipt"] = ["bundle_id": "com.attacker.other"]
        let inspection = try Self.inspect(request)
        #expect(!inspection.findings.contains { $0.kind == .responseDecodingMismatch })
    }
}
