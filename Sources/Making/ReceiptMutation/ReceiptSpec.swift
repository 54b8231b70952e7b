import ReceiptASN1
import ReceiptBuilding
import ReceiptDiagnostics
import ReceiptJSON
import ReceiptModel

/// A JSON value of a build spec, read with rcpt's one JSON reader (`JSONDocument`): booleans are told apart from
/// numbers, numbers are integers, and a name given twice in one object is refused (readers disagree on which copy
/// counts).
enum SpecValue {
    case null
    case bool(Bool)
    case integer(Int64)
    case string(String)
    case array([SpecValue])
    case object([String: SpecValue])

    /// The spec in `data`.
    static func read(_ data: [UInt8]) throws(MutationError) -> SpecValue {
        let document: JSONDocument
        do {
            document = try JSONDocument.read(data)
        } catch {
            throw MutationError(
                .specInvalidJSON, "the spec is not valid JSON: \(error.message) at offset \(error.offset)")
        }
        if let duplicate = document.duplicateKeys.first {
            let path = document.paths()[duplicate.duplicate]
            throw MutationError(
                .specDuplicateKey,
                "the spec names \"\(duplicate.name)\" twice (\(path)): JSON readers disagree on which copy counts, so rcpt takes neither"
            )
        }
        return try value(document, document.root)
    }

    /// The value of `node`; the recursion is bounded by the reader's depth limit (`JSONLimits.maximumDepth`).
    static func value(_ document: JSONDocument, _ node: Int) throws(MutationError) -> SpecValue {
        switch document.nodes[node].kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .string: return .string(document.string(node) ?? "")
        case .number:
            guard let integer = Int64(document.text(node)) else {
                throw MutationError(
                    .specInvalidValue,
                    "\(document.paths()[node]) is \(document.text(node).prefix(40)): spec numbers are 64-bit integers")
            }
            return .integer(integer)
        case .array:
            var elements: [SpecValue] = []
            for child in document.children(of: node) { elements.append(try value(document, child)) }
            return .array(elements)
        case .object:
            var members: [String: SpecValue] = [:]
            for child in document.children(of: node) { members[document.key(child) ?? ""] = try value(document, child) }
            return .object(members)
        }
    }
}

/// Turns the `receipt` object of `rcpt dump --format json` (or the whole dump document) into a blueprint.
///
/// Field names come from the field table; each value is encoded as its field's kind says (UTF8String, IA5String,
/// INTEGER, a boolean as INTEGER 0/1, raw bytes from hex). `in_app` holds one object per record; `unknown` maps
/// type numbers to values. Any value may instead be an object: `{"raw": "<hex>"}` for exact value bytes, or
/// `{"asn1": "UTF8String|IA5String|INTEGER|BOOLEAN", "value": …}`, with an optional `"version"`. `empty` lists date
/// fields present with an empty value. Keys ending in `_ms` are derived and ignored. Unknown keys are errors, so typos do not vanish silently.
package enum ReceiptSpec {
    package static func blueprint(fromJSON data: [UInt8]) throws(MutationError) -> ReceiptBlueprint {
        let root = try SpecValue.read(data)
        guard case .object(var object) = root else {
            throw MutationError(
                .specNotObject, "the spec must be a JSON object (the receipt object of dump --format json)")
        }
        if case .object(let receipt)? = object["receipt"] { object = receipt }
        var blueprint = ReceiptBlueprint(attributes: try attributes(object, scope: .receipt, path: "receipt"))
        blueprint.sorted = true
        return blueprint
    }

    static func attributes(_ object: [String: SpecValue], scope: FieldScope, path: String) throws(MutationError)
        -> [AttributeSpec]
    {
        var specs: [AttributeSpec] = []
        for key in object.keys.sorted() {
            guard let value = object[key] else { continue }
            if key.hasSuffix("_ms") { continue }
            if key == "in_app", scope == .receipt {
                guard case .array(let records) = value else {
                    throw MutationError(.specInvalidValue, "\(path).in_app must be an array of objects")
                }
                for (index, record) in records.enumerated() {
                    guard case .object(let fields) = record else {
                        throw MutationError(.specInvalidValue, "\(path).in_app[\(index)] must be an object")
                    }
                    specs.append(.record(try attributes(fields, scope: .inApp, path: "\(path).in_app[\(index)]")))
                }
                continue
            }
            if key == "empty" {
                // Date fields present with an empty value (the dump leaves them out of the named fields).
                guard case .array(let names) = value else {
                    throw MutationError(.specInvalidValue, "\(path).empty must be an array of field names")
                }
                for name in names {
                    guard case .string(let field) = name,
                        let descriptor = FieldTable.descriptor(named: field, in: scope), descriptor.kind == .date
                    else {
                        throw MutationError(
                            .specInvalidValue, "\(path).empty holds something that is not a date field name")
                    }
                    specs.append(
                        .ia5(
                            descriptor.type, "",
                            version: FieldTable.conventionalVersion(of: descriptor.type, in: scope)))
                }
                continue
            }
            if key == "unknown" {
                guard case .object(let unknown) = value else {
                    throw MutationError(.specInvalidValue, "\(path).unknown must map type numbers to values")
                }
                for typeKey in unknown.keys.sorted() {
                    guard let type = Int64(typeKey), let unknownValue = unknown[typeKey] else {
                        throw MutationError(.specInvalidType, "\(path).unknown: '\(typeKey)' is not a type number")
                    }
                    if let spec = try encode(
                        unknownValue, type: type, kind: .unknown, scope: scope,
                        path: "\(path).unknown.\(typeKey)")
                    {
                        specs.append(spec)
                    }
                }
                continue
            }
            guard let descriptor = FieldTable.descriptor(named: key, in: scope), descriptor.kind != .inAppRecords else {
                throw MutationError(
                    .specUnknownField,
                    "\(path).\(key) is not a field rcpt knows; put other types under \"unknown\": {\"<type>\": value}")
            }
            if let spec = try encode(
                value, type: descriptor.type, kind: descriptor.kind, scope: scope,
                path: "\(path).\(key)")
            {
                specs.append(spec)
            }
        }
        return specs
    }

    /// One attribute from a spec value; nil for JSON null (the field is left out).
    static func encode(_ value: SpecValue, type: Int64, kind: FieldKind, scope: FieldScope, path: String)
        throws(MutationError) -> AttributeSpec?
    {
        let defaultVersion = FieldTable.conventionalVersion(of: type, in: scope)
        switch value {
        case .null:
            return nil
        case .object(let form):
            var version = defaultVersion
            if case .integer(let explicit)? = form["version"] { version = explicit }
            if case .string(let hex)? = form["raw"] {
                guard let bytes = ASN1Primitives.bytes(fromHex: hex) else {
                    throw MutationError(.specInvalidHex, "\(path).raw is not hex")
                }
                return AttributeSpec(type: type, version: version, value: bytes)
            }
            guard case .string(let asn1)? = form["asn1"], let inner = form["value"] else {
                throw MutationError(
                    .specInvalidValue, "\(path) must be {\"raw\": hex} or {\"asn1\": type, \"value\": …}")
            }
            return try typed(asn1, inner, type: type, version: version, path: path)
        case .string(let text):
            switch kind {
            case .ia5String, .date: return .ia5(type, text, version: defaultVersion)
            case .raw:
                guard let bytes = ASN1Primitives.bytes(fromHex: text) else {
                    throw MutationError(.specInvalidHex, "\(path) is raw bytes and must be hex")
                }
                return .raw(type, bytes, version: defaultVersion)
            case .integer, .flag:
                guard let number = Int64(text) else {
                    throw MutationError(.specInvalidValue, "\(path) must be an integer")
                }
                return .integer(type, number, version: defaultVersion)
            case .utf8String, .unknown, .inAppRecords:
                return .utf8(type, text, version: defaultVersion)
            }
        case .integer(let number):
            return .integer(type, number, version: defaultVersion)
        case .bool(let flag):
            return .integer(type, flag ? 1 : 0, version: defaultVersion)
        case .array:
            throw MutationError(.specInvalidValue, "\(path) cannot be an array")
        }
    }

    static func typed(_ asn1: String, _ value: SpecValue, type: Int64, version: Int64, path: String)
        throws(MutationError) -> AttributeSpec
    {
        var writer = ASN1Writer()
        switch (asn1, value) {
        case ("UTF8String", .string(let text)): writer.appendUTF8String(text)
        case ("IA5String", .string(let text)): writer.appendIA5String(text)
        case ("INTEGER", .integer(let number)): writer.appendInteger(number)
        case ("BOOLEAN", .bool(let flag)): writer.appendBoolean(flag)
        default:
            throw MutationError(
                .specInvalidValue,
                "\(path): asn1 \"\(asn1)\" with this value is not supported (UTF8String, IA5String, INTEGER, BOOLEAN)")
        }
        return AttributeSpec(type: type, version: version, value: writer.bytes)
    }
}
