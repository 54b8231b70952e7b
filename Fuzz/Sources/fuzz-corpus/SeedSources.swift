import Foundation
import FuzzSigningSupport
import ReceiptASN1
import ReceiptCrypto
import ReceiptModel
import ReceiptMutation
import ReceiptPKCS7
import ReceiptSigning

/// What seeds are made from: the real receipts, their payloads, records and dates, and a TEST-ONLY signer.
struct SeedSources {
    /// Real receipts by file name (without `.receipt`), sorted by name.
    var receipts: [(name: String, bytes: [UInt8])]
    /// The DER certificates in `Corpus/certs/`, by file name.
    var certificates: [(name: String, bytes: [UInt8])]
    /// Signs payloads with the committed TEST-ONLY chain.
    var signer: ReceiptSigner
    /// The committed chain, its `foreign/` chain and the TEST-ONLY device: what the `verify` seeds are mutated with.
    var kit: MutationKit

    /// 2000-01-01 and 2100-01-01: the TEST-ONLY chain's validity.
    static let notBefore: Int64 = 946_684_800
    static let notAfter: Int64 = 4_102_444_800

    init(root: String, keys: String) throws {
        let manager = FileManager.default
        let receiptDirectory = root + "/Corpus/receipts"
        receipts = try manager.contentsOfDirectory(atPath: receiptDirectory).filter { $0.hasSuffix(".receipt") }
            .sorted().map { name in
                (String(name.dropLast(".receipt".count)), try Self.read(receiptDirectory + "/" + name))
            }
        let certificateDirectory = root + "/Corpus/certs"
        certificates = try manager.contentsOfDirectory(atPath: certificateDirectory).filter { $0.hasSuffix(".cer") }
            .sorted().map { name in
                (String(name.dropLast(".cer".count)), try Self.read(certificateDirectory + "/" + name))
            }
        do {
            signer = ReceiptSigner(authority: try CertificateAuthorityFiles.load(from: keys))
        } catch {
            throw SeedError("cannot load the TEST-ONLY signing chain from \(keys) (run with --new-keys once): \(error)")
        }
        do {
            kit = try FuzzKeys.kit(in: keys)
        } catch {
            throw SeedError(
                "cannot load the TEST-ONLY kit from \(keys) and its "
                    + "\(CertificateAuthorityFiles.foreignFolder)/ (run with --new-foreign-keys once): "
                    + "\(error)")
        }
    }

    static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw SeedError("cannot read \(path)") }
        return [UInt8](data)
    }

    /// Generates the TEST-ONLY chain committed under `Corpus/fuzz/keys/` (2048-bit keys, the smallest `verify` accepts),
    /// and its foreign chain.
    static func writeKeys(to directory: String) throws {
        let authority = try TestCertificateAuthority.generate(
            shape: .apple, notBefore: notBefore, notAfter: notAfter,
            keyBits: 2048, label: "rcpt fuzz seeds")
        try CertificateAuthorityFiles.write(authority, to: directory, force: true)
        try writeForeignKeys(to: directory)
    }

    /// Generates the second, unrelated TEST-ONLY chain in `directory/foreign/`, the same way and with the same
    /// validity as the main one (as `rcpt ca init` does): the CA the catalogue's `foreign-ca` mutation signs with,
    /// which the `verify` harness does not trust. Leaves the main chain, and so every signed seed, as it is.
    static func writeForeignKeys(to directory: String) throws {
        let foreign = try TestCertificateAuthority.generate(
            shape: .apple, notBefore: notBefore, notAfter: notAfter,
            keyBits: 2048, label: "rcpt fuzz seeds foreign")
        try CertificateAuthorityFiles.write(
            foreign, to: directory + "/" + CertificateAuthorityFiles.foreignFolder,
            force: true)
    }

    // MARK: - Parts of real receipts

    /// The payload (eContent, segments joined) of a receipt.
    static func payload(of receipt: [UInt8]) -> [UInt8]? {
        let result = SignedDataReader.read(receipt)
        guard result.error == nil, let content = result.signedData.encapsulatedContent, content.octetString != nil
        else { return nil }
        var bytes: [UInt8] = []
        for segment in content.segments { bytes += receipt[segment] }
        return bytes
    }

    /// The type-17 values (in-app record SETs) of a payload, in order.
    static func recordValues(of payload: [UInt8]) -> [[UInt8]] {
        let read = PayloadReader.read(
            file: payload, segments: [0..<payload.count], depth: 0, limits: .default,
            nodesRead: 0)
        return read.attributes.filter { $0.type == FieldTable.inAppRecordType }.map { Array($0.valueBytes) }
    }

    /// The text of every date-kind attribute of a payload and its records, in order.
    static func dates(in payload: [UInt8]) -> [String] {
        let read = PayloadReader.read(
            file: payload, segments: [0..<payload.count], depth: 0, limits: .default,
            nodesRead: 0)
        var result: [String] = []
        func collect(_ attribute: Attribute) {
            if attribute.kind == .date, let text = attribute.text { result.append(text) }
        }
        for attribute in read.attributes {
            collect(attribute)
            if let record = attribute.record {
                for inner in record.attributes { collect(inner) }
            }
        }
        return result
    }
}

/// A seed-building failure, with its reason.
struct SeedError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
