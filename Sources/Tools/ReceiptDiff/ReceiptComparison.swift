import ReceiptModel

/// Compares the payloads: top-level attributes matched by type and occurrence, and in-app records matched by
/// `RecordMatcher`, then field by field.
enum ReceiptComparison {
    /// Attributes first, then in-app records.
    static func compare(_ a: PayloadSide, _ b: PayloadSide, into sink: inout ChangeSink) {
        compareAttributes(a.attributes, b.attributes, into: &sink)
        compareRecords(a, b, into: &sink)
    }

    /// `attributes[type=N#k]`, answering to the field's name in `--ignore` patterns.
    static func attributePath(_ keyed: KeyedAttribute) -> DiffPath {
        let type: String
        switch keyed.key.type {
        case .number(let number): type = "type=\(number)"
        case .hex(let hex): type = "type=0x\(hex)"
        case .none: type = "untyped"
        }
        return DiffPath("attributes", selector: "\(type)#\(keyed.key.occurrence)", alias: keyed.name)
    }

    /// Top-level attributes other than in-app records, reported in type order.
    static func compareAttributes(_ a: [KeyedAttribute], _ b: [KeyedAttribute], into sink: inout ChangeSink) {
        let indexA = Dictionary(a.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        let indexB = Dictionary(b.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        for key in Set(indexA.keys).union(indexB.keys).sorted() {
            switch (indexA[key].map { a[$0] }, indexB[key].map { b[$0] }) {
            case (let left?, let right?):
                let base = attributePath(left)
                KeyedAttribute.compare(
                    left, right, valuePath: base.appending("value"), base: base,
                    label: left.name, into: &sink)
            case (let left?, nil):
                sink.append(
                    Change(
                        path: attributePath(left), kind: .removed, layer: .receipt, old: left.value,
                        new: nil, offsetA: left.offset, offsetB: nil, label: left.name))
            case (nil, let right?):
                sink.append(
                    Change(
                        path: attributePath(right), kind: .added, layer: .receipt, old: nil,
                        new: right.value, offsetA: nil, offsetB: right.offset, label: right.name))
            case (nil, nil):
                break
            }
        }
    }

    /// In-app records: matched and removed ones in A's order, then added ones in B's order. The pairs are
    /// compared in two halves, one per core.
    static func compareRecords(_ a: PayloadSide, _ b: PayloadSide, into sink: inout ChangeSink) {
        let partner = RecordMatcher.match(a.records, b.records)
        var matched = [Bool](repeating: false, count: b.records.count)
        var work: [(a: Int?, b: Int?)] = []
        work.reserveCapacity(max(a.records.count, b.records.count))
        for (index, other) in partner.enumerated() {
            work.append((index, other))
            if let other { matched[other] = true }
        }
        for (index, taken) in matched.enumerated() where !taken { work.append((nil, index)) }
        let options = sink.options
        let middle = work.count / 2
        let firstHalf = work[..<middle]
        let secondHalf = work[middle...]
        let (first, second) = ReceiptDiff.both(
            { compare(firstHalf, a, b, options: options) },
            { compare(secondHalf, a, b, options: options) })
        sink.absorb(first)
        sink.absorb(second)
    }

    /// Compares one run of record pairs into a sink of its own.
    static func compare(
        _ work: ArraySlice<(a: Int?, b: Int?)>, _ a: PayloadSide, _ b: PayloadSide,
        options: DiffOptions
    ) -> ChangeSink {
        var sink = ChangeSink(options: options)
        for pair in work {
            switch (pair.a.map { a.records[$0] }, pair.b.map { b.records[$0] }, a.payload, b.payload) {
            case (let entryA?, let entryB?, let payloadA?, let payloadB?):
                compareRecord(entryA, entryB, payloadA, payloadB, into: &sink)
            case (let entryA?, nil, let payloadA?, _):
                sink.append(
                    Change(
                        path: entryA.path, kind: .removed, layer: .receipt,
                        old: summary(entryA, payloadA), new: nil, offsetA: entryA.offset, offsetB: nil))
            case (nil, let entryB?, _, let payloadB?):
                sink.append(
                    Change(
                        path: entryB.path, kind: .added, layer: .receipt, old: nil,
                        new: summary(entryB, payloadB), offsetA: nil, offsetB: entryB.offset))
            default:
                break
            }
        }
        return sink
    }

    /// Two matched records. Identical bytes end it at once; otherwise both are decoded and their fields matched by
    /// type and occurrence.
    static func compareRecord(
        _ a: RecordEntry, _ b: RecordEntry, _ payloadA: ReceiptPayload,
        _ payloadB: ReceiptPayload, into sink: inout ChangeSink
    ) {
        let path = a.path
        func encodedLength() {
            sink.compare(
                path.appending("encodedLength"), .receipt, .number(Int64(a.length)),
                .number(Int64(b.length)), offsetA: a.offset, offsetB: b.offset, isEncoding: true)
        }
        if a.version == b.version, a.record.bytes == b.record.bytes {
            encodedLength()
            return
        }
        sink.compare(
            path.appending("version"), .receipt, a.version.map(DiffValue.number) ?? .null,
            b.version.map(DiffValue.number) ?? .null, offsetA: a.offset, offsetB: b.offset)
        let fieldsA = a.record.attributes
        let fieldsB = b.record.attributes
        let keysA = KeyedAttribute.keys(fieldsA)
        let keysB = KeyedAttribute.keys(fieldsB)
        // Two versions of a record usually list the same fields in the same order: pair them directly then.
        let partner =
            keysA == keysB
            ? keysA.indices.map { Optional($0) }
            : HashJoin.match(keysA.map { Optional($0) }, keysB.map { Optional($0) })
        var differs = a.version != b.version
        var matched = [Bool](repeating: false, count: fieldsB.count)
        var pending: [(key: FieldKey, a: Int?, b: Int?)] = []
        for (index, field) in fieldsA.enumerated() {
            guard let other = partner[index] else {
                pending.append((keysA[index], index, nil))
                continue
            }
            matched[other] = true
            if !KeyedAttribute.identical(field, fieldsB[other]) {
                pending.append((keysA[index], index, other))
            }
        }
        for index in fieldsB.indices where !matched[index] { pending.append((keysB[index], nil, index)) }
        // Only what differs is snapshotted, and reported in type order.
        pending.sort { $0.key < $1.key }
        for item in pending {
            let occurrence = item.key.occurrence
            let left = item.a.map { KeyedAttribute(fieldsA[$0], occurrence: occurrence) }
            let right = item.b.map { KeyedAttribute(fieldsB[$0], occurrence: occurrence) }
            switch (left, right) {
            case (let left?, let right?):
                let fieldPath = self.fieldPath(path, left)
                let changed = KeyedAttribute.compare(
                    left, right, valuePath: fieldPath, base: fieldPath, label: nil,
                    into: &sink)
                differs = differs || changed
            case (let left?, nil):
                differs = true
                sink.append(
                    Change(
                        path: fieldPath(path, left), kind: .removed, layer: .receipt, old: left.value,
                        new: nil, offsetA: left.offset, offsetB: nil))
            case (nil, let right?):
                differs = true
                sink.append(
                    Change(
                        path: fieldPath(path, right), kind: .added, layer: .receipt, old: nil,
                        new: right.value, offsetA: nil, offsetB: right.offset))
            case (nil, nil):
                break
            }
        }
        if !differs && pending.isEmpty { encodedLength() }
    }

    /// `in_app[…].expires_date`, with `[#N]` for the N-th later field of the same type.
    static func fieldPath(_ record: DiffPath, _ field: KeyedAttribute) -> DiffPath {
        record.appending(field.name, selector: field.key.occurrence > 0 ? "#\(field.key.occurrence)" : nil)
    }

    /// A whole record as an added or removed item shows it: its fields by name, in order.
    static func summary(_ entry: RecordEntry, _ payload: ReceiptPayload) -> DiffValue {
        let fields = KeyedAttribute.all(entry.record.attributes)
        let order = fields.indices.sorted { fields[$0].key < fields[$1].key }
        return .fields(
            order.map { fields[$0] }.map { field in
                DiffField(
                    name: field.key.occurrence > 0 ? "\(field.name)#\(field.key.occurrence)" : field.name,
                    value: field.value)
            })
    }
}
