import ReceiptASN1
import ReceiptDiagnostics
import ReceiptPKCS7

/// Why reading a receipt stopped: the layer, a stable code, the absolute offset and a message.
public struct ReceiptReadError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Layer: String, Sendable, Hashable {
        case input
        case container
        case payload
    }

    /// What stopped the read, typed: the error of the layer below, or the payload's own shape.
    package enum Cause: Sendable, Hashable {
        /// The input held no receipt bytes (empty, not base64, another document…).
        case input(InputError)
        /// The container could not be read on (its ASN.1 error, if that is what stopped it, is `underlying`).
        case container(PKCS7Error)
        /// An ASN.1 error in the payload.
        case encoding(ASN1Error)
        /// The payload is not a SET of attributes at all (`payload-empty`, `payload-not-set`).
        case payloadShape
    }

    package var layer: Layer
    /// The stable code output shows (`cause`'s code).
    public var kind: ErrorCode
    public var code: String { kind.rawValue }
    public var offset: Int
    public var message: String
    package var cause: Cause

    package init(_ layer: Layer, _ kind: ErrorCode, at offset: Int, _ message: String, cause: Cause = .payloadShape) {
        self.layer = layer
        self.kind = kind
        self.offset = offset
        self.message = message
        self.cause = cause
    }

    package init(input error: InputError) {
        self.init(.input, error.kind, at: error.offset ?? 0, error.message, cause: .input(error))
    }

    package init(container error: PKCS7Error) {
        self.init(.container, error.kind, at: error.offset, error.message, cause: .container(error))
    }

    package init(payload error: ASN1Error, context: String, map: SegmentMap) {
        self.init(
            .payload, error.kind, at: map.fileOffset(error.offset),
            "\(error.message) while reading \(context)", cause: .encoding(error))
    }

    /// The error in the one shape every inspection shows, with the layer that refused.
    public var coded: CodedError { CodedError(kind, message, at: offset, layer: ErrorLayer(rawValue: layer.rawValue)) }

    public var description: String { "\(layer.rawValue): \(message) (\(code) at offset \(offset))" }
}
