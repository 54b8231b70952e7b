import ReceiptASN1

/// Objects, arrays and keys of `JSONWriter`.
extension JSONWriter {
    // MARK: Containers

    package mutating func object(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        close(UInt8(ascii: "}"))
    }

    package mutating func array(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "["))
        body(&self)
        close(UInt8(ascii: "]"))
    }

    /// An object member: `"name": {…}`, its members written by `body`.
    package mutating func object(_ name: StaticString, _ body: (inout JSONWriter) -> Void) {
        key(name)
        object(body)
    }

    /// An array member: `"name": […]`, its elements written by `body`.
    package mutating func array(_ name: StaticString, _ body: (inout JSONWriter) -> Void) {
        key(name)
        array(body)
    }

    /// An array member with one object per item: `"key": [{…}, {…}]`, each object's members written by `body`.
    package mutating func objects<Items: Sequence>(
        _ name: StaticString, _ items: Items, _ body: (Items.Element, inout JSONWriter) -> Void
    ) {
        key(name)
        array { json in
            for item in items { json.object { json in body(item, &json) } }
        }
    }

    /// Writes a member name; the next value call writes its value.
    package mutating func key(_ name: StaticString) {
        separate()
        guard name.hasPointerRepresentation else {
            return name.withUTF8Buffer { key(utf8: $0) }
        }
        // Member names written in the source need no escaping: copied as they are, with the quotes and colon
        // around them, in one reservation.
        let length = name.utf8CodeUnitCount
        reserve(length &+ 4)
        let out = storage + count
        out[0] = UInt8(ascii: "\"")
        Self.copyShort(name.utf8Start, length, to: out + 1)
        out[length &+ 1] = UInt8(ascii: "\"")
        out[length &+ 2] = UInt8(ascii: ":")
        out[length &+ 3] = UInt8(ascii: " ")
        count &+= pretty ? length &+ 4 : length &+ 3
        afterKey = true
    }

    /// A member name from the source held as one Unicode scalar (a one-character literal).
    mutating func key(utf8 name: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        append(name)
        append(UInt8(ascii: "\""))
        endKey()
    }

    /// Copies `count` bytes from `source` to `target` in eight-byte words, the last one overlapping the one before
    /// (never reading or writing outside either range): a member name costs a load and a store or two, no call.
    @inline(__always)
    static func copyShort(_ source: UnsafePointer<UInt8>, _ count: Int, to target: UnsafeMutablePointer<UInt8>) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(target)
        if count >= 8 {
            var offset = 0
            while count &- offset > 8 {
                to.storeBytes(
                    of: from.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset,
                    as: UInt64.self)
                offset &+= 8
            }
            to.storeBytes(
                of: from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self),
                toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 4 {
            to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
            to.storeBytes(
                of: from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self),
                toByteOffset: count &- 4, as: UInt32.self)
        } else {
            var offset = 0
            while offset < count {
                target[offset] = source[offset]
                offset &+= 1
            }
        }
    }

    /// Writes a member name computed at run time, followed by `suffix` (`"_ms"` after a field name).
    package mutating func key(named name: String, suffix: StaticString = "") {
        separate()
        var name = name
        name.withUTF8 { name in
            suffix.withUTF8Buffer { suffix in
                guard suffix.isEmpty else { return appendUTF8(name, suffix) }
                appendUTF8(name)
            }
        }
        endKey()
    }

    mutating func endKey() {
        if pretty { append(UInt8(ascii: ":"), UInt8(ascii: " ")) } else { append(UInt8(ascii: ":")) }
        afterKey = true
    }
}
