import ReceiptDiagnostics
import ReceiptJSON
import ReceiptPurchases
import ReceiptStatus

/// `rcpt status` for people (a block per product: its state, the transaction it rests on, the evidence; then the
/// conflicts and how each document was used) and as `rcpt.status/1`.
package enum StatusReport {
    package static let schema = "rcpt.status/1"

    // MARK: Text

    package static func text(_ status: CustomerStatus, style: TextStyle) -> String {
        var out = ""
        let counted = status.documents.filter { $0.use == .counted || $0.use == .countedUnverified }.count
        let apps =
            status.apps.isEmpty ? "no app" : status.apps.map { TerminalText.safe($0.text) }.joined(separator: "; ")
        out +=
            style.bold("status at \(MillisecondUTC.text(status.at))") + " of \(apps), from \(counted) of "
            + "\(status.documents.count) document\(status.documents.count == 1 ? "" : "s")"
            + (status.question == .knownThen
                ? " (as known then: only statements signed by then)\n"
                : " (entitled then, from every document)\n")
        if status.products.isEmpty { out += "\n  no purchase in the counted documents\n" }
        for product in status.products {
            out +=
                "\n"
                + style.bold(product.productID.isEmpty ? "(an empty productId)" : TerminalText.safe(product.productID))
                + "  " + style.dim(product.kind.rawValue)
                + (status.apps.count > 1 ? "  " + TerminalText.safe(product.app.text) : "") + "\n"
            out += "  " + stateLine(product, style: style) + "\n"
            let identity = [
                product.transactionID.map { "transaction \($0)" },
                product.originalTransactionID.flatMap { $0 == product.transactionID ? nil : "original \($0)" },
                product.subscriptionGroup.map { "group \($0)" },
                product.purchaseDate.map { "purchased \(MillisecondUTC.text($0))" },
                // Whose it is (a support engineer's trial: a family member's subscription read as the customer's).
                product.familyShared
                    ? "shared by a family member (FAMILY_SHARED): the purchaser's to keep or end" : nil,
            ].compactMap { $0 }
            if !identity.isEmpty { out += "  " + TerminalText.safe(identity.joined(separator: ", ")) + "\n" }
            for note in product.notes { out += "  " + style.yellow("note") + " " + TerminalText.safe(note) + "\n" }
            for (index, evidence) in product.evidence.enumerated() {
                out += (index == 0 ? "  evidence " : "           ") + evidenceText(evidence, style: style) + "\n"
            }
        }
        if !status.conflicts.isEmpty {
            out +=
                "\n" + style.bold("conflicts")
                + ", each decided by the verified statement signed by then, newest first (a refund dated by then counts)\n"
            for conflict in status.conflicts {
                out +=
                    "  "
                    + TerminalText.safe(
                        "transaction \(conflict.transactionID) (\(conflict.productID)), \(conflict.claim): ")
                    + "used \(TerminalText.safe(conflict.used.value ?? "none")) from "
                    + evidenceText(conflict.used.evidence, style: style)
                    + ";\n    overruled \(TerminalText.safe(conflict.overruled.value ?? "none")) from "
                    + evidenceText(conflict.overruled.evidence, style: style) + "\n"
            }
        }
        out += "\n" + style.bold("documents") + "\n"
        for document in status.documents {
            let use: String
            switch document.use {
            case .counted: use = style.green("counted    ")
            case .countedUnverified: use = style.yellow("UNVERIFIED ")
            case .notCounted: use = style.red("NOT COUNTED")
            case .unreadable: use = style.red("UNREADABLE ")
            }
            var line =
                "  \(use) \(TerminalText.safe(document.name)): "
                + (document.use == .unreadable ? "" : TerminalText.safe(document.description))
            if document.use != .unreadable, document.app.bundleID != nil || document.app.environment != nil {
                line += ", " + TerminalText.safe(document.app.text)
            }
            if let problem = document.problem, !document.isUnsignedOnly {
                line += (document.use == .unreadable ? "" : ", ") + TerminalText.safe(problem)
            }
            switch document.use {
            case .notCounted where document.isUnsignedOnly:
                line +=
                    " (no signed receipt in it: only Apple's unsigned decoding, which --include-unverified counts, marked unsigned)"
            case .countedUnverified where document.isUnsignedOnly:
                line += " (no signed receipt in it: Apple's unsigned decoding counted as asked, marked unsigned)"
            case .notCounted where !document.isValid:
                line += " (it does not verify; --include-unverified counts it, marked)"
            case .notCounted: break
            case .countedUnverified: line += " (it does not verify; counted as asked, marked unverified)"
            case .counted, .unreadable: break
            }
            if let note = document.note { line += " (" + TerminalText.safe(note) + ")" }
            if document.hasUnsigned, !document.isUnsignedOnly {
                line +=
                    document.unsignedCounted
                    ? "; Apple's unsigned decoding in it counted, marked unsigned"
                    : "; Apple's unsigned decoding in it not counted (--include-unverified counts it)"
            }
            out += line + "\n"
        }
        return out
    }

    package static func stateLine(_ product: ProductStatus, style: TextStyle) -> String {
        func date(_ value: Int64?) -> String { value.map { MillisecondUTC.text($0) } ?? "(no date)" }
        let word = String(product.state.rawValue.uppercased().map { $0 == "-" ? " " : $0 })
        var words: [String] = []
        switch product.state {
        case .active:
            words.append("until \(date(product.endedDate ?? product.expiresDate))")
        case .gracePeriod:
            words.append("until \(date(product.gracePeriodExpiresDate)) (expired \(date(product.expiresDate)))")
        case .billingRetry, .expired:
            // An end no document dates (no expiry, no signed statement of the end) is said so, not "since (no date)".
            words.append(
                (product.endedDate ?? product.expiresDate).map { "since \(MillisecondUTC.text($0))" } ?? "(no date)")
        case .revoked, .refunded:
            words.append(date(product.revocationDate))
        case .owned:
            words.append("since \(date(product.purchaseDate))")
        case .consumed:
            words.append(product.quantity.map { "×\($0)" } ?? "units unknown")
        case .unknown:
            // The reason says why, when there is one.
            words.append(product.reason == nil ? "no state stated" : "")
        }
        if let reason = product.reason {
            words[words.count - 1] += words[words.count - 1].isEmpty ? "(\(reason))" : " (\(reason))"
        }
        if let autoRenew = product.autoRenew, product.state != .revoked {
            words.append("auto-renew \(autoRenew ? "on" : "off")")
        }
        if let next = product.renewsTo { words.append("renews to \(next)") }
        let coloured: String
        switch product.state {
        case .active, .owned, .consumed: coloured = style.green(word)
        case .gracePeriod, .billingRetry, .unknown: coloured = style.yellow(word)
        case .expired, .revoked, .refunded: coloured = style.red(word)
        }
        return coloured + " " + TerminalText.safe(words.joined(separator: ", "))
            + (product.restsOnUnverified ? " " + style.yellow("[rests on unverified evidence]") : "")
            + (product.state.grantsService && product.restsOnRenewalInfoAlone
                ? " "
                    + style.yellow(
                        "[not granted: renewal info alone names no app; give a transaction or notification of this subscription]"
                    ) : "")
            + (product.otherCustomers.isEmpty
                ? ""
                : " "
                    + style.red(
                        "[not granted: another customer's subscription of this group is among the documents (original "
                            + product.otherCustomers.joined(separator: ", ")
                            + "): one account has one subscription a group; give one customer's documents]"))
    }

    static func evidenceText(_ evidence: StatusEvidence, style: TextStyle) -> String {
        var text = TerminalText.safe(evidence.document)
        if !evidence.path.isEmpty { text += " " + TerminalText.safe(evidence.path) }
        if let offset = evidence.offset { text += " @\(offset)" }
        var about = [evidence.kind]
        if let notification = evidence.notification { about.append("in notification \(notification)") }
        if let signed = evidence.signedDate {
            // Apple's unsigned JSON is dated by the request it answered, never signed.
            let label =
                evidence.trust == .unsigned
                ? "answered " : evidence.kind == "receipt-record" ? "receipt created " : "signed "
            about.append(label + MillisecondUTC.text(signed))
        }
        text += " (" + TerminalText.safe(about.joined(separator: ", ")) + ")"
        if evidence.trust != .verified { text += " " + style.yellow("[\(evidence.trust.rawValue)]") }
        return text
    }

    // MARK: JSON

    package static func json(_ status: CustomerStatus, pretty: Bool) -> [UInt8] {
        JSONWriter.document(pretty: pretty) { json in
            json.object { json in
                json.member("schema", schema)
                json.member("at", MillisecondUTC.text(status.at))
                json.member("question", status.question.rawValue)
                json.array("unbound_by") { json in
                    for option in status.unboundBy { json.string(option) }
                }
                json.array("apps") { json in
                    for app in status.apps { json.object { json in writeApp(app, to: &json) } }
                }
                json.array("products") { json in
                    for product in status.products { writeProduct(product, to: &json) }
                }
                json.objects("conflicts", status.conflicts) { conflict, json in
                    json.member("transaction_id", conflict.transactionID)
                    json.member("product_id", conflict.productID)
                    json.member("claim", conflict.claim)
                    for (name, statement) in [("used", conflict.used), ("overruled", conflict.overruled)] {
                        json.key(named: name)
                        json.object { json in
                            json.key("value")
                            if conflict.claim == "upgrade", let value = statement.value {
                                json.bool(value == "true")
                            } else {
                                json.string(statement.value)
                            }
                            json.key("evidence")
                            writeEvidence(statement.evidence, to: &json)
                        }
                    }
                }
                json.member("error", nil as String?)
                writeDocuments(status.documents, to: &json)
            }
        }
    }

    /// `rcpt.status/1` for documents refused together (different apps or environments): no product, the `error`,
    /// and how each document would have been used.
    package static func refusal(_ mixed: CustomerStatus.MixedApps, at: Int64, message: String, pretty: Bool) -> [UInt8]
    {
        JSONWriter.document(pretty: pretty) { json in
            json.object { json in
                json.member("schema", schema)
                json.member("at", MillisecondUTC.text(at))
                for name: StaticString in ["apps", "products", "conflicts"] {
                    json.key(name)
                    json.array { _ in }
                }
                json.key("error")
                DumpJSON.writeErrorObject(CodedError(.appsMixed, message), to: &json)
                writeDocuments(mixed.documents, to: &json)
            }
        }
    }

    static func writeDocuments(_ documents: [CustomerStatus.DocumentUse], to json: inout JSONWriter) {
        json.objects("documents", documents) { document, json in
            json.member("document", document.name)
            json.member("kind", document.description)
            json.member("valid", document.isValid)
            json.member("use", document.use.rawValue)
            json.member("problem", document.problem)
            json.member("note", document.note)
            writeApp(document.app, to: &json)
            json.member(
                "unsigned_decoding",
                document.hasUnsigned
                    ? (document.unsignedCounted ? "counted" : "not-counted") : nil)
        }
    }

    static func writeApp(_ app: StatusApp, to json: inout JSONWriter) {
        json.member("bundle_id", app.bundleID)
        json.member("app_apple_id", app.appAppleID)
        json.member("environment", app.environment)
    }

    static func writeDate(_ name: StaticString, _ value: Int64?, to json: inout JSONWriter) {
        json.member(name, value.map { MillisecondUTC.text($0) })
    }

    static func writeProduct(_ product: ProductStatus, to json: inout JSONWriter) {
        json.object { json in
            json.member("product_id", product.productID)
            json.member("kind", product.kind.rawValue)
            json.member("state", product.state.rawValue)
            json.member("grants_service", product.grantsService)
            json.member("reason", product.reason)
            writeApp(product.app, to: &json)
            json.member("subscription_group", product.subscriptionGroup)
            json.member("original_transaction_id", product.originalTransactionID)
            json.member("transaction_id", product.transactionID)
            writeDate("purchase_date", product.purchaseDate, to: &json)
            writeDate("expires_date", product.expiresDate, to: &json)
            writeDate("revocation_date", product.revocationDate, to: &json)
            writeDate("ended_date", product.endedDate, to: &json)
            writeDate("grace_period_expires_date", product.gracePeriodExpiresDate, to: &json)
            json.key("auto_renew")
            if let autoRenew = product.autoRenew { json.bool(autoRenew) } else { json.null() }
            json.member("renews_to", product.renewsTo)
            json.member("quantity", product.quantity)
            json.member("verified", !product.restsOnUnverified)
            json.member("family_shared", product.familyShared)
            json.array("notes") { json in
                for note in product.notes { json.string(note) }
            }
            json.array("other_customers") { json in
                for original in product.otherCustomers { json.string(original) }
            }
            json.array("evidence") { json in
                for evidence in product.evidence { writeEvidence(evidence, to: &json) }
            }
        }
    }

    static func writeEvidence(_ evidence: StatusEvidence, to json: inout JSONWriter) {
        json.object { json in
            json.member("document", evidence.document)
            json.member("path", evidence.path)
            json.member("offset", evidence.offset)
            json.member("kind", evidence.kind)
            writeDate("signed_date", evidence.signedDate, to: &json)
            json.member("notification", evidence.notification)
            json.member("trust", evidence.trust.rawValue)
        }
    }
}
