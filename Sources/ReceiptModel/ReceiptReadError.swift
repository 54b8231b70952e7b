import ReceiptASN1
import ReceiptPKCS7

/// Why reading a receipt stopped: the layer, a stable code, the absolute offset and a message.
public struct ReceiptReadError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Layer: String, Sendable, Hashable {
        case input
        case container
        case payload
    }

    public var layer: Layer
    public var code: String
    public var offset: Int
    public var message: String

    public init(_ layer: Layer, code: String, at offset: Int, _ message: String) {
        self.layer = layer
        self.code = code
        self.offset = offset
        self.message = message
    }

    public init(container error: PKCS7Error) {
        self.init(.container, code: error.code, at: error.offset, error.message)
    }

    public init(payload error: ASN1Error, context: String, map: SegmentMap) {
        self.init(.payload, code: error.code.rawValue, at: map.fileOffset(error.offset),
                  "\(error.message) while reading \(context)")
    }

    public var description: String { "\(layer.rawValue): \(message) (\(code) at offset \(offset))" }
}
