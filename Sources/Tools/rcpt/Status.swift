import ArgumentParser
import Foundation
import ReceiptBatch
import ReceiptDiagnostics
import ReceiptInput
import ReceiptModel
import ReceiptRendering
import ReceiptStatus
import ReceiptValidation
import Synchronization

/// `rcpt status`: what a customer owns at a time, from the signed documents given.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "What a customer owns at a time: every product's state, from any mix of receipts and Apple's JWS.",
        discussion: """
            Reads receipts, StoreKit 2 transactions and renewal info, server notifications, App Store Server API \
            responses and verifyReceipt responses of one app's customer, verifies each (as `rcpt verify` does), and \
            gives the state of every product at --at (default now): what the customer was entitled to then, from \
            every document (--known-at: what a server could have known then, from what was signed by then).

            A subscription is active (until when, auto-renewing or not, renewing to which product), expired (why), \
            billing-retry, grace-period (until when) or revoked (when, why). A product the subscription was \
            upgraded, downgraded or crossgraded away from is expired, naming the product it moved to. Any other \
            product is owned (a non-consumable, a non-renewing subscription, a receipt record of no stated type), \
            consumed (a consumable, with the units bought) or refunded (every purchase of it refunded).

            Each state names the document, the path in it and the byte offset of the statement it rests on. Two \
            statements about one transaction that disagree (a receipt without a refund, a later notification with \
            one) are decided by the newer signed one, and the conflict is shown. Only documents that verify count; \
            --include-unverified also counts the others and Apple's unsigned verifyReceipt decoding, marked, and \
            never over a verified statement.

            --bundle-id, --environment and --app-apple-id bind the answer to one app: a document of another app or \
            environment does not verify, and is not counted. Without them, any app's genuine documents count, and \
            the answer says so.

            Exit codes: 0 every document counted; 1 a document does not verify (the status is still given, without \
            it); 2 a document could not be read, the documents are about different apps or environments (see \
            --per-app), or a usage error.

            Examples:
              rcpt status --root Corpus/fuzz/keys-jws/root.pem --at 2024-03-01 Corpus/status/
              rcpt status --format json customer/ | jq '.products[] | select(.grants_service)'
            """
    )

    @OptionGroup var documents: DocumentFiles

    @Option(
        help: ArgumentHelp(
            "The time the states hold at: now, an RFC 3339 time, a date (UTC midnight) or epoch milliseconds.",
            valueName: "time"))
    var at: String = "now"

    @Option(help: "Output format: text or json (rcpt.status/1).")
    var format: StatusFormat = .text

    @Flag(
        name: .customLong("include-unverified"),
        help: "Also count documents that do not verify, and Apple's unsigned verifyReceipt decoding, marked as such.")
    var includeUnverified = false

    @Flag(name: .customLong("per-app"), help: "Give a status per app and environment instead of refusing a mix.")
    var perApp = false

    @Flag(
        name: .customLong("known-at"),
        help:
            "Answer what a server could have known at --at: only statements signed by then count (by default, what the customer was entitled to then, from every document: renewal info signed later that places --at in a grace period counts)."
    )
    var knownAt = false

    @Flag(
        help:
            "Descend into subdirectories of the directories given (links to directories found there are not followed).")
    var recursive = false

    @OptionGroup var trust: TrustOptions

    /// What every document is judged against, as `rcpt verify` judges it: one of another app or environment does
    /// not verify, and so is not counted.
    @OptionGroup var expected: ExpectationOptions

    @OptionGroup var style: OutputStyle

    enum StatusFormat: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
    }

    func validate() throws {
        if documents.files.isEmpty && isatty(STDIN_FILENO) != 0 {
            throw ValidationError(
                "give the customer's documents: files or directories (or - for one on standard input), or pipe one in")
        }
        if documents.files.filter({ $0 == "-" }).count > 1 {
            throw ValidationError("- (standard input) holds one document: give it once")
        }
        guard time != nil else {
            throw ValidationError(
                "--at takes now, an RFC 3339 time such as 2024-01-31T12:00:00Z, a date such as 2024-01-31 or epoch milliseconds, not '\(at)'\(EvaluationTime.digitsHint(at))"
            )
        }
    }

    /// --at in milliseconds since 1970, to the millisecond (epoch milliseconds as given; a time's fraction kept).
    var time: Int64? {
        if at.utf8.allSatisfy({ (0x30...0x39).contains($0) }) { return EvaluationTime.milliseconds(at) }
        switch EvaluationTime(argument: at) {
        case .now?: return Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        case .date(let date)?: return date.millisecondsSinceEpoch
        case .signed?, nil: return nil
        }
    }

    /// `name` as a terminal shows it, with any character outside ASCII named (a Cyrillic `е` in a bundle id looks
    /// like a Latin `e`).
    static func marked(_ name: String) -> String {
        let shown = TerminalText.safe(name)
        let foreign = name.unicodeScalars.filter { !$0.isASCII }
        guard !foreign.isEmpty else { return shown }
        let named = foreign.prefix(4).map { "U+" + String($0.value, radix: 16, uppercase: true) }
        return shown + " [not ASCII: " + named.joined(separator: ", ") + (foreign.count > 4 ? ", …" : "") + "]"
    }

    /// Every file in `paths` read on every core (each document is inspected as `rcpt verify` inspects it) and
    /// taken by `collector` in their order as soon as the ones before it are, so that only the documents read ahead
    /// of their turn are held; the files that could not be loaded, with why.
    static func collect(_ paths: [String], options: InspectionOptions, into collector: inout CustomerStatus.Collector)
        -> [(path: String, reason: String)]
    {
        struct Fold: Sendable {
            var collector: CustomerStatus.Collector
            /// Documents read before their turn, by index.
            var waiting: [Int: StatusDocument] = [:]
            var next = 0
            var failures: [Int: String] = [:]
        }
        let fold = Mutex(Fold(collector: collector))
        fold.withLock { $0.collector.expect(paths.count) }
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let path = paths[index]
            let name = InputFiles.displayName(path)
            let document: StatusDocument
            var failure: String?
            switch InputFiles.load(path) {
            case .success(let input):
                let classified = InputClassifier.classify(input)
                let inspection = Inspector.inspect(classified, input: input, options: options)
                // The document as the classifier found it (a response pasted with a ticket's text around it).
                document = StatusDocument(
                    name: name, document: inspection, input: classified.bytes, offset: classified.offset)
            case .failure(let unloadable):
                failure = unloadable.reason
                document = StatusDocument(unreadable: name, problem: unloadable.reason)
            }
            fold.withLock { fold in
                if let failure { fold.failures[index] = failure }
                fold.waiting[index] = document
                while let ready = fold.waiting.removeValue(forKey: fold.next) {
                    fold.collector.add(ready)
                    fold.next += 1
                }
            }
        }
        let folded = fold.withLock { $0 }
        collector = folded.collector
        return folded.failures.keys.sorted().compactMap { index in folded.failures[index].map { (paths[index], $0) } }
    }

    func run() throws {
        try Console.guarded {
            guard let time else { throw CommandFailure.usage("--at: cannot read '\(at)'") }
            var options = try trust.inspectionOptions()
            options.expectations = expected.expectations
            options.requiresBinding = expected.requireBinding
            options.digestsInput = false
            // What is judged at a time of the document's own (a licence's expiration_date) is judged at --at.
            options.statusTime = EvaluationTime.instant(milliseconds: time)
            let expanded = try InputFiles.documents(
                in: try InputFiles.orStandardInput(documents.files), recursive: recursive)
            var collector = CustomerStatus.Collector(
                at: time, includeUnverified: includeUnverified, question: knownAt ? .knownThen : .entitled)
            let unloadable = Self.collect(expanded.paths, options: options, into: &collector)
            for (path, reason) in unloadable {
                Console.error("unreadable \(TerminalText.safe(InputFiles.displayName(path))): \(reason)")
            }
            let unreadable = !unloadable.isEmpty || collector.uses.contains { $0.use == .unreadable }
            switch collector.resolve(perApp: perApp) {
            case .failure(let mixed):
                let message =
                    "the documents are about different apps or environments; give one app's documents, or --per-app for a status per app:\n"
                    + mixed.counted.map { use in
                        // Apple's unsigned decoding in a verifyReceipt response, counted, names an app of its own.
                        let unsigned = use.unsignedApp.flatMap {
                            $0 == use.app
                                ? nil : "; its unsigned decoding (--include-unverified): \(Self.marked($0.text))"
                        }
                        return "  \(TerminalText.safe(use.name)): \(Self.marked(use.app.text))\(unsigned ?? "")"
                    }.joined(separator: "\n")
                if format == .json {
                    Console.write(StatusReport.refusal(mixed, at: time, message: message, pretty: !style.compact))
                }
                throw CommandFailure.usage(message)
            case .success(var status):
                status.unboundBy = [
                    expected.bundleID == nil ? "--bundle-id" : nil, expected.environment == nil ? "--environment" : nil,
                ].compactMap { $0 }
                switch format {
                case .text:
                    Console.write(StatusReport.text(status, style: style.text))
                    if status.unboundBy.contains("--bundle-id"), !status.products.isEmpty {
                        Console.write(
                            "\nnot bound to an app: any app's genuine documents count — pass --bundle-id and --environment (and --app-apple-id in Production)\n"
                        )
                    } else if status.unboundBy.contains("--environment"), !status.products.isEmpty {
                        // A red team's trial: a free TestFlight purchase was ACTIVE, exit 0, with no word of it.
                        Console.write(
                            "\nnot bound to an environment: this app's Sandbox documents, free to any TestFlight tester, count as its Production ones — pass --environment\n"
                        )
                    }
                case .json: Console.write(StatusReport.json(status, pretty: !style.compact))
                }
                if unreadable { return 2 }
                // Documents of more than one customer answer for none of them.
                let mixed = status.products.contains { !$0.otherCustomers.isEmpty }
                return status.documents.allSatisfy { $0.use == .counted } && !mixed ? 0 : 1
            }
        }
    }
}
