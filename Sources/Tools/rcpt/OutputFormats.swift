import ArgumentParser
import Foundation
import ReceiptBatch
import ReceiptCrypto
import ReceiptDiagnostics
import ReceiptInput
import ReceiptJWS
import ReceiptModel
import ReceiptRendering
import ReceiptValidation
import ReceiptVerifyReceipt

/// How a command writes its result.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}

/// How `dump` and `verify` write a document: text, one JSON document, one JSON line per input, or the body Apple's
/// verifyReceipt endpoint returns; for `verify` of many files also JUnit XML or SARIF, a case per file.
enum DocumentFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
    case jsonl
    case verifyreceipt
    case junit
    case sarif
    case html

    /// Whether the format reports many files at once, for CI systems.
    var isCIReport: Bool { self == .junit || self == .sarif }
}

/// The formats `dump` writes: `DocumentFormat` less the CI verdict reports (JUnit, SARIF), which only `verify`
/// writes, so `dump --help` lists only what `dump` takes.
enum DumpFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
    case jsonl
    case verifyreceipt
    case html

    var document: DocumentFormat {
        switch self {
        case .text: return .text
        case .json: return .json
        case .jsonl: return .jsonl
        case .verifyreceipt: return .verifyreceipt
        case .html: return .html
        }
    }
}

/// How `conformance` and `fuzz-validator` report: text, their JSON, JUnit XML (CI test tabs) or SARIF 2.1.0 (code
/// scanning).
enum GateFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
    case junit
    case sarif

    /// The report in this format, for `junit` and `sarif`; nil for the others.
    func ciDocument(_ report: CIReport) -> [UInt8]? {
        switch self {
        case .junit, .sarif: return report.written(junit: self == .junit)
        case .text, .json: return nil
        }
    }
}

/// When to colour text output.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto
    case always
    case never

    /// Whether to colour: `auto` colours a terminal unless NO_COLOR is set (no-color.org).
    var isOn: Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = ProcessInfo.processInfo.environment["NO_COLOR"], !noColor.isEmpty { return false }
            return isatty(STDOUT_FILENO) != 0
        }
    }
}

/// The words `--input-format` takes: the ones the dump prints (der, ber, base64, pem, json), and the older names.
enum InputFormatArgument: String, ExpressibleByArgument, CaseIterable {
    case der, ber, base64, pem, json, jws
    case binary
    case jsonRequest = "json-request"

    /// What the classifier is told the input is: a receipt in its wrapper, or Apple's JWS.
    var forced: ForcedFormat {
        switch self {
        case .der, .ber, .binary: return .receipt(.binary)
        case .base64: return .receipt(.base64)
        case .pem: return .receipt(.pem)
        case .json, .jsonRequest: return .receipt(.jsonRequest)
        case .jws: return .jws
        }
    }

    static var allValueStrings: [String] { ["der", "ber", "base64", "pem", "json", "jws"] }
}

extension ReceiptEnvironment: ExpressibleByArgument {
    public init?(argument: String) {
        guard
            let found = ReceiptEnvironment.allCases.first(where: { $0.rawValue.lowercased() == argument.lowercased() })
        else { return nil }
        self = found
    }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
