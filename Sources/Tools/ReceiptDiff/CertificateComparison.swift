import ReceiptASN1
import ReceiptCrypto
import ReceiptModel
import ReceiptPKCS7
import ReceiptValidation

/// Compares the embedded certificates. They are matched by SHA-256 fingerprint (a hash join); what is left is
/// paired by subject, so a renewed certificate shows as changed field by field; the rest is removed or added.
enum CertificateComparison {
    /// One embedded certificate and its fingerprint (computed from the embedded bytes, so undecodable
    /// certificates have one too).
    struct Entry {
        var fingerprint: String
        var report: CertificateReport

        var subject: String? { report.certificate?.subject }
        var offset: Int { report.embedded.offset }
        var path: DiffPath { DiffPath("certificates", selector: "sha256=\(fingerprint)") }
    }

    /// The certificates of one side, in order, with their fingerprints.
    static func entries(_ inspection: ReceiptInspection) -> [Entry] {
        let bytes = inspection.receipt?.bytes ?? []
        return inspection.certificates.map { report in
            let range = report.embedded.encoding
            let digest =
                range.upperBound <= bytes.count
                ? (try? Digest.hash([bytes[range]], algorithm: .sha256)).map { ASN1Primitives.hex($0) } : nil
            let fingerprint = digest ?? report.certificate?.sha256Fingerprint ?? "unavailable-\(report.embedded.index)"
            return Entry(fingerprint: fingerprint, report: report)
        }
    }

    /// Matched ones in A's order (exact matches only move, which is encoding-level), then added ones.
    static func compare(_ a: [Entry], _ b: [Entry], into sink: inout ChangeSink) {
        var partner = HashJoin.match(a.map { Optional($0.fingerprint) }, b.map { Optional($0.fingerprint) })
        let exact = partner.map { $0 != nil }
        HashJoin.matchLeftovers(a.map(\.subject), b.map(\.subject), partner: &partner)
        for (index, entry) in a.enumerated() {
            guard let other = partner[index].map({ b[$0] }) else {
                sink.append(
                    Change(
                        path: entry.path, kind: .removed, layer: .certificates, old: summary(entry),
                        new: nil, offsetA: entry.offset, offsetB: nil, label: label(entry)))
                continue
            }
            if exact[index] {
                sink.compare(
                    entry.path.appending("index"), .certificates,
                    .number(Int64(entry.report.embedded.index)), .number(Int64(other.report.embedded.index)),
                    offsetA: entry.offset, offsetB: other.offset, isEncoding: true, label: label(entry))
            } else {
                compareFields(entry, other, into: &sink)
            }
        }
        let matched = Set(partner.compactMap { $0 })
        for (index, entry) in b.enumerated() where !matched.contains(index) {
            sink.append(
                Change(
                    path: entry.path, kind: .added, layer: .certificates, old: nil, new: summary(entry),
                    offsetA: nil, offsetB: entry.offset, label: label(entry)))
        }
    }

    /// Two certificates with the same subject and different bytes, field by field.
    static func compareFields(_ a: Entry, _ b: Entry, into sink: inout ChangeSink) {
        let fieldsA = fields(a)
        let fieldsB = fields(b)
        let label = label(a)
        let valuesB = Dictionary(fieldsB.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let namesA = Set(fieldsA.map(\.name))
        for field in fieldsA {
            sink.compare(
                a.path.appending(field.name), .certificates, field.value, valuesB[field.name],
                offsetA: a.offset, offsetB: b.offset, label: label)
        }
        for field in fieldsB where !namesA.contains(field.name) {
            sink.compare(
                a.path.appending(field.name), .certificates, nil, field.value, offsetA: a.offset,
                offsetB: b.offset, label: label)
        }
        guard let left = a.report.certificate, let right = b.report.certificate else { return }
        compareExtensions(
            left.extensions, right.extensions, path: a.path, offsets: (a.offset, b.offset),
            label: label, into: &sink)
    }

    /// Extensions matched by OID and occurrence.
    static func compareExtensions(
        _ a: [CertificateExtension], _ b: [CertificateExtension], path: DiffPath,
        offsets: (Int, Int), label: String?, into sink: inout ChangeSink
    ) {
        let keysA = occurrenceKeys(a.map(\.oid))
        let keysB = occurrenceKeys(b.map(\.oid))
        let partner = HashJoin.match(keysA.map { Optional($0) }, keysB.map { Optional($0) })
        func extensionPath(_ key: String) -> DiffPath { path.appending("extensions", selector: "oid=\(key)") }
        func summary(_ item: CertificateExtension) -> DiffValue {
            .fields([
                DiffField(name: "name", value: .word(item.name)),
                DiffField(name: "critical", value: .bool(item.critical)),
                DiffField(name: "value", value: .word(item.value)),
            ])
        }
        for (index, item) in a.enumerated() {
            guard let other = partner[index].map({ b[$0] }) else {
                sink.append(
                    Change(
                        path: extensionPath(keysA[index]), kind: .removed, layer: .certificates,
                        old: summary(item), new: nil, offsetA: offsets.0, offsetB: nil, label: label))
                continue
            }
            sink.compare(
                extensionPath(keysA[index]).appending("critical"), .certificates, .bool(item.critical),
                .bool(other.critical), offsetA: offsets.0, offsetB: offsets.1, label: label)
            sink.compare(
                extensionPath(keysA[index]).appending("value"), .certificates, .word(item.value),
                .word(other.value), offsetA: offsets.0, offsetB: offsets.1, label: label)
        }
        let matched = Set(partner.compactMap { $0 })
        for (index, item) in b.enumerated() where !matched.contains(index) {
            sink.append(
                Change(
                    path: extensionPath(keysB[index]), kind: .added, layer: .certificates, old: nil,
                    new: summary(item), offsetA: nil, offsetB: offsets.1, label: label))
        }
    }

    /// `key`, `key#1`, `key#2`… for repeated keys, in order.
    static func occurrenceKeys(_ keys: [String]) -> [String] {
        var seen: [String: Int] = [:]
        return keys.map { key in
            let occurrence = seen[key, default: 0]
            seen[key] = occurrence + 1
            return occurrence == 0 ? key : "\(key)#\(occurrence)"
        }
    }

    /// The compared fields of a certificate, in the order `rcpt dump` shows them.
    static func fields(_ entry: Entry) -> [DiffField] {
        guard let certificate = entry.report.certificate else {
            return [
                DiffField(name: "sha256Fingerprint", value: .word(entry.fingerprint)),
                DiffField(name: "error", value: .word(entry.report.decodeError?.message ?? "undecodable")),
            ]
        }
        return [
            DiffField(name: "sha256Fingerprint", value: .word(entry.fingerprint)),
            DiffField(name: "subject", value: .word(certificate.subject)),
            DiffField(name: "issuer", value: .word(certificate.issuer)),
            DiffField(name: "serial", value: .word(certificate.serialHex)),
            DiffField(name: "notBefore", value: .word(ReceiptDate.format(epochSeconds: certificate.notBefore))),
            DiffField(name: "notAfter", value: .word(ReceiptDate.format(epochSeconds: certificate.notAfter))),
            DiffField(name: "signatureAlgorithm", value: .word(certificate.signatureAlgorithm)),
            DiffField(name: "publicKey", value: .word(certificate.publicKeyDescription)),
            DiffField(name: "selfIssued", value: .bool(certificate.isSelfIssued)),
        ]
    }

    /// A whole certificate as an added or removed item shows it.
    static func summary(_ entry: Entry) -> DiffValue {
        .fields(fields(entry).filter { $0.name != "selfIssued" && $0.name != "signatureAlgorithm" })
    }

    /// The certificate's common name (or whole subject), to tell people which certificate a path names.
    static func label(_ entry: Entry) -> String? {
        guard let subject = entry.subject else { return nil }
        return commonName(subject) ?? subject
    }

    /// The CN value of an RFC 2253 line, when it has one.
    static func commonName(_ subject: String) -> String? {
        var parts: [Substring] = []
        var start = subject.startIndex
        var index = subject.startIndex
        var escaped = false
        while index < subject.endIndex {
            let character = subject[index]
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "," {
                parts.append(subject[start..<index])
                start = subject.index(after: index)
            }
            index = subject.index(after: index)
        }
        parts.append(subject[start...])
        return parts.first { $0.hasPrefix("CN=") }.map { String($0.dropFirst(3)) }
    }
}
