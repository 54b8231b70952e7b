import ReceiptASN1

/// The reading pass's fast paths for an attribute in the shape Apple writes. They read straight from the bytes what
/// the general path (`AttributeDecoder.readAttribute`) reads header by header, and give up (nil, having changed
/// nothing) on anything the general path would make a finding of, any budget or depth limit it would meet, and any
/// fact the entry cannot hold without a wide fact: that attribute then takes the general path. Both paths decode an
/// attribute they both take to the same entry and spend the same headers of the node budget; CanonicalPathTests
/// hold them to it on real and damaged payloads.
extension AttributeDecoder {
    /// The whole attribute, value included, appended as a packed entry: `02 LL type 02 01 version 04 LL value`, the
    /// value one primitive element of the type the field table expects (any INTEGER or string type for a type it
    /// does not know; nothing for an opaque one) with a short DER length, filling it; text checked and without NUL,
    /// an INTEGER minimal and within 32 bits, a flag 0 or 1, a date a whole-second UTC one.
    ///
    /// The attribute's own header is read here too (`30`, a short DER length, within `limit`), so the walk over a
    /// SET takes an attribute in one inlined step; the header counts toward the node budget as the reader's would.
    /// Returns the entry, the type and where the attribute ends.
    @inline(__always)
    mutating func appendCanonical(at offset: Int, limit: Int, depth: Int, scope: FieldScope)
        -> (entry: Int, type: Int64, end: Int)?
    {
        guard offset >= 0, offset < limit, limit <= buffer.count, buffer[offset] == 0x30,
            let (length, contentStart) = ASN1BufferReader.shortLength(buffer, at: offset &+ 1, limit: limit),
            length <= limit &- contentStart
        else { return nil }
        let node = (offset: offset, contentStart: contentStart, contentEnd: contentStart &+ length)
        guard depth &+ 2 <= reader.state.limits.maximumDepth,
            reader.state.nodesRead < reader.state.limits.maximumNodes &- 4,
            let type = Self.minimalInteger(buffer, at: node.contentStart, limit: node.contentEnd),
            type.value >= 0, type.value < Int64(PayloadIndex.Entry.noType),
            let version = Self.minimalInteger(buffer, at: type.end, limit: node.contentEnd),
            version.value == 1 || version.value == 2
        else { return nil }
        let valueStart = version.end
        guard valueStart < node.contentEnd, buffer[valueStart] == 0x04,
            let (valueLength, valueContent) = ASN1BufferReader.shortLength(
                buffer, at: valueStart &+ 1,
                limit: node.contentEnd),
            valueLength == node.contentEnd &- valueContent
        else { return nil }
        let valueDelta = valueContent &- node.offset
        guard valueDelta < 15 else { return nil }
        let kind = fieldKinds.kind(of: type.value, in: scope)
        let versionCode: PayloadIndex.VersionCode = version.value == 1 ? .one : .two
        if kind == .raw {
            reader.state.nodesRead &+= 4
            let entry = index.append(
                PayloadIndex.Entry(
                    start: UInt32(truncatingIfNeeded: node.offset),
                    valueEnd: UInt32(truncatingIfNeeded: node.contentEnd),
                    number: 0, type: UInt16(truncatingIfNeeded: type.value),
                    layout: UInt8(truncatingIfNeeded: valueDelta) << 4,
                    state: PayloadIndex.State(kind: .raw, version: versionCode, inApp: scope == .inApp)))
            return (entry, type.value, node.contentEnd)
        }
        // The one element of the value: a primitive universal tag below 31 with a short DER length, filling it.
        guard kind != .inAppRecords, node.contentEnd &- valueContent >= 2 else { return nil }
        let identifier = buffer[valueContent]
        guard identifier & 0xE0 == 0,
            let (length, content) = ASN1BufferReader.shortLength(buffer, at: valueContent &+ 1, limit: node.contentEnd),
            length == node.contentEnd &- content
        else { return nil }
        let tagNumber = identifier & 0x1F
        switch kind {
        case .utf8String: guard tagNumber == 12 else { return nil }
        case .ia5String, .date: guard tagNumber == 22 else { return nil }
        case .integer, .flag: guard tagNumber == 2 else { return nil }
        case .unknown:
            guard
                tagNumber == 2 || tagNumber == 12 || tagNumber == 18 || tagNumber == 19 || tagNumber == 22
                    || tagNumber == 26
            else { return nil }
        case .raw, .inAppRecords: return nil
        }
        let range = content..<node.contentEnd
        var valueKind: ValueKind
        var number: Int64 = 0
        var dateParsed = false
        if tagNumber == 2 {
            guard !ASN1Primitives.isNonMinimalInteger(buffer, range), let value = ASN1Primitives.int64(buffer, range),
                value > Int64(Int32.min), value <= Int64(Int32.max)
            else { return nil }
            number = value
            valueKind = .integer
            if kind == .flag {
                guard value == 0 || value == 1 else { return nil }
                valueKind = .boolean
            }
        } else if kind == .date, let seconds = ReceiptDate.quickUTCSeconds(buffer, range) {
            // Apple's form: ASCII digits and separators (no text check needed), a whole-second UTC instant.
            guard seconds > Int64(Int32.min), seconds <= Int64(Int32.max) else { return nil }
            valueKind = .date
            number = seconds
            dateParsed = true
        } else {
            let check = TextCheck.of(buffer, range)
            guard tagNumber == 12 ? check.isValidUTF8 : check.isASCII, !check.containsNUL else { return nil }
            valueKind = .text
            if kind == .date {
                valueKind = .date
                if !range.isEmpty {
                    guard case .success(let date) = ReceiptDate.parse(buffer, range), date.isWholeSecondUTC else {
                        return nil
                    }
                    let seconds = date.secondsSinceEpoch
                    guard seconds > Int64(Int32.min), seconds <= Int64(Int32.max) else { return nil }
                    number = seconds
                    dateParsed = true
                }
            }
        }
        let innerHeader = content &- valueContent
        var state = PayloadIndex.State(kind: valueKind, version: versionCode, inApp: scope == .inApp)
        state.dateParsed = dateParsed
        reader.state.nodesRead &+= 5
        let entry = index.append(
            PayloadIndex.Entry(
                start: UInt32(truncatingIfNeeded: node.offset), valueEnd: UInt32(truncatingIfNeeded: node.contentEnd),
                number: Int32(truncatingIfNeeded: number), type: UInt16(truncatingIfNeeded: type.value),
                layout: UInt8(truncatingIfNeeded: valueDelta) << 4 | UInt8(truncatingIfNeeded: innerHeader),
                state: state))
        return (entry, type.value, node.contentEnd)
    }

    /// The three fields of an attribute in the shape Apple writes, whatever its value holds: `02 LL type 02 LL
    /// version 04 LL value` filling the SEQUENCE exactly, each INTEGER of 1 to 8 minimal content octets, the value
    /// a primitive OCTET STRING with a short DER length, within the node budget and the depth limit. The value is
    /// then decoded the general way.
    @inline(__always)
    mutating func canonicalFields(of node: ASN1Node) -> (type: Int64, version: Int64, value: ASN1Node)? {
        let depth = node.depth &+ 1
        guard depth <= reader.state.limits.maximumDepth,
            reader.state.nodesRead < reader.state.limits.maximumNodes &- 2,
            let type = Self.minimalInteger(buffer, at: node.contentStart, limit: node.contentEnd),
            let version = Self.minimalInteger(buffer, at: type.end, limit: node.contentEnd)
        else { return nil }
        let valueStart = version.end
        guard valueStart < node.contentEnd, buffer[valueStart] == 0x04,
            let (length, contentStart) = ASN1BufferReader.shortLength(
                buffer, at: valueStart &+ 1,
                limit: node.contentEnd),
            length == node.contentEnd &- contentStart
        else { return nil }
        reader.state.nodesRead &+= 3
        return (
            type.value, version.value,
            ASN1Node(
                tag: .octetString, offset: valueStart, contentStart: contentStart,
                contentEnd: node.contentEnd, end: node.contentEnd, depth: depth, anomalies: [])
        )
    }

    /// A primitive INTEGER at `position` with a one-octet length of 1 to 8 minimal content octets ending by
    /// `limit`: its value and where it ends; nil for anything else.
    @inline(__always)
    static func minimalInteger(_ buffer: UnsafeBufferPointer<UInt8>, at position: Int, limit: Int)
        -> (value: Int64, end: Int)?
    {
        guard position >= 0, limit <= buffer.count, limit &- position >= 3, buffer[position] == 0x02 else { return nil }
        let length = Int(buffer[position &+ 1])
        let content = position &+ 2
        guard length >= 1, length <= 8, length <= limit &- content else { return nil }
        let range = content..<(content &+ length)
        guard !ASN1Primitives.isNonMinimalInteger(buffer, range),
            let value = ASN1Primitives.int64(buffer, range)
        else { return nil }
        return (value, range.upperBound)
    }
}
