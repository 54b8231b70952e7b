import Foundation
import ReceiptJSON

/// The shapes people paste receipts and JWS in, from logs, forms, emails, terminals and JSON logs.
package enum PastedShapes {
    package static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    /// `text` wrapped at `width` with every line quoted by `quote` (mail's `> `, an issue tracker's `| `, a comment).
    package static func quoted(_ text: String, every width: Int, with quote: String) -> String {
        wrapped(text, every: width).split(separator: "\n").map { quote + $0 }.joined(separator: "\n") + "\n"
    }

    /// An e-mail's source with `body` in its text part, quoted-printable (RFC 2045 §6.7): `=` escaped as `=3D`, lines
    /// broken at 76 characters with soft breaks (`=` before the line break).
    package static func quotedPrintableMail(_ body: String) -> String {
        var encoded = ""
        var line = ""
        for character in body {
            let piece =
                character == "=" ? "=3D" : character == "\n" ? "\n" : String(character)
            if piece == "\n" {
                encoded += line + "\r\n"
                line = ""
                continue
            }
            if line.count + piece.count > 75 {
                encoded += line + "=\r\n"
                line = ""
            }
            line += piece
        }
        encoded += line
        return "From: customer@example.com\r\nSubject: my purchase\r\nMIME-Version: 1.0\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            + encoded + "\r\n"
    }

    package static func wrapped(_ text: String, every width: Int, separator: String = "\n") -> String {
        var lines: [Substring] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            lines.append(rest.prefix(width))
            rest = rest.dropFirst(width)
        }
        return lines.joined(separator: separator)
    }

    /// Thirty-two shapes of a receipt, by name, from its DER bytes.
    package static func receipt(_ der: [UInt8]) -> [(String, [UInt8])] {
        let b = Data(der).base64EncodedString()
        let shapes: [(String, String)] = [
            ("base64 on one line", b),
            ("base64 in 64 columns", wrapped(b, every: 64) + "\n"),
            ("base64 in 76 columns, CRLF", wrapped(b, every: 76, separator: "\r\n") + "\r\n"),
            ("quoted", "\"\(b)\""),
            ("single-quoted", "'\(b)'"),
            ("byte order mark", "\u{FEFF}\(b)"),
            ("PEM", "-----BEGIN PKCS7-----\n" + wrapped(b, every: 64) + "\n-----END PKCS7-----\n"),
            ("verifyReceipt request", #"{"receipt-data":"\#(b)"}"#),
            ("request with password", #"{"receipt-data":"\#(b)","password":"secret","exclude-old-transactions":true}"#),
            ("form body", "receipt-data=\(percentEncoded(b))&password=secret"),
            ("URL-encoded", percentEncoded(b)),
            ("URL-encoded twice", percentEncoded(percentEncoded(b))),
            ("'+' become spaces", b.replacingOccurrences(of: "+", with: " ")),
            ("log line", "2024-06-01T12:00:00Z INFO receipt=\(b) user=42\n"),
            ("greeting before", "Hi,\nhere is the receipt you asked for:\n\n" + wrapped(b, every: 76) + "\n"),
            ("signature after", wrapped(b, every: 76) + "\n--\nSent from my phone\n"),
            ("JSON log line", #"{"level":"info","body":"{\"receipt-data\":\"\#(b)\"}"}"#),
            ("verifyReceipt response", #"{"status":0,"latest_receipt":"\#(b)"}"#),
            ("bracketed log prefix", #"[app] body={"receipt-data":"\#(b)"}"# + "\n"),
            ("request, then a log line", #"{"receipt-data":"\#(b)"}"# + "\n2024-06-01 12:00:01 INFO done\n"),
            (
                "indented lines",
                wrapped(b, every: 64).split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
            ),
            ("blank lines around", "\n\n  \(b)  \n\n"),
            ("mail quote", quoted(b, every: 76, with: "> ")),
            ("nested mail quote", quoted(b, every: 76, with: "> > ")),
            ("mail quote without a space", quoted(b, every: 72, with: ">")),
            ("issue tracker quote", quoted(b, every: 76, with: "| ")),
            ("chat quote without a space", quoted(b, every: 64, with: "|")),
            ("shell comment", quoted(b, every: 76, with: "# ")),
            ("code comment", quoted(b, every: 64, with: "// ")),
            ("'+' become spaces, in 76 columns", wrapped(b, every: 76).replacingOccurrences(of: "+", with: " ") + "\n"),
            ("quoted-printable e-mail", quotedPrintableMail("Hi,\n\nhere is the receipt: \(b)\n\nThanks\n")),
            // Words of base64 letters after the block: the whole text decodes too, to the receipt and bytes after
            // it (a trial of session 27 found these read as a receipt with trailing bytes, or as misread base64).
            ("a word on the next line", b + "\nOK\n"),
            ("words on the next line", b + "\nuser 42\n"),
            ("a word after a space", b + " abcd\n"),
            ("a blank line, then a signature", wrapped(b, every: 76) + "\n\nThanks,\nBob\n"),
            ("the same base64 twice, on two lines", b + "\n" + b + "\n"),
            // A hostile-bytes trial: PEM saved on Windows was "unterminated"; base64 of a request body was "a token
            // cut short".
            (
                "PEM, CRLF",
                "-----BEGIN PKCS7-----\r\n" + wrapped(b, every: 64, separator: "\r\n") + "\r\n-----END PKCS7-----\r\n"
            ),
            ("base64 of a verifyReceipt request", Data(#"{"receipt-data":"\#(b)"}"#.utf8).base64EncodedString()),
        ]
        // PowerShell's `>` saves text as UTF-16LE with a byte order mark (a hostile-bytes trial).
        let utf16 = [UInt8]([0xFF, 0xFE]) + Array(b.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        return [("DER", der)] + shapes.map { ($0.0, Array($0.1.utf8)) } + [("UTF-16LE with a byte order mark", utf16)]
    }

    /// The member Apple's documents hold a token of `token`'s kind in, told from its payload's claims as rcpt tells
    /// them: a notification's notificationType, an app transaction's receiptType, a transaction's transactionId,
    /// renewal info's autoRenew claims.
    static func member(holding token: String) -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return "signedPayload" }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return "signedPayload" }
        if claims["notificationType"] != nil { return "signedPayload" }
        if claims["receiptType"] != nil { return "signedAppTransactionInfo" }
        if claims["transactionId"] != nil { return "signedTransactionInfo" }
        if claims["autoRenewStatus"] != nil || claims["autoRenewProductId"] != nil { return "signedRenewalInfo" }
        return "signedPayload"
    }

    /// At least twenty shapes of a JWS input (a token, or a notification body), by name.
    package static func jws(_ input: String) -> [(String, [UInt8])] { jwsDocuments(input).map { ($0.0, $0.1) } }

    /// The shapes of `jws`, each with the document it holds (the token, or the body around it).
    package static func jwsDocuments(_ input: String) -> [(String, [UInt8], String)] {
        let t = input.trimmingCharacters(in: .whitespacesAndNewlines)
        let isToken = !t.hasPrefix("{")
        // A token sits in a document where Apple's documents hold its kind (a notification in a body's
        // signedPayload, a transaction in signedTransactionInfo …): anywhere else it is another flaw.
        let member = isToken ? Self.member(holding: t) : "signedPayload"
        let body = isToken ? #"{"\#(member)":"\#(t)"}"# : t
        var shapes: [(String, String, String)] = [
            ("as shipped", input, t),
            ("line break after", t + "\n", t),
            ("byte order mark", "\u{FEFF}" + t, t),
            ("no-break spaces around", "\u{00A0}" + t + "\u{00A0}", t),
            ("URL-encoded body", percentEncoded(body), body),
            ("URL-encoded body twice", percentEncoded(percentEncoded(body)), body),
            ("JSON log line", #"{"level":"info","msg":"notification","body":\#(JSONWriter.literal(body))}"#, body),
            ("log line around the body", "2024-06-01 12:00:00 INFO received \(body) from Apple\n", body),
            ("bracketed log prefix", "[webhook] body=\(body)\n", body),
            ("body, then a log line", body + "\n2024-06-01 12:00:01 INFO done\n", body),
            // Encoded once more (`base64 -w0 token.jws`): it was "not a receipt or a JWS", exit 2.
            ("base64 of the text", Data(t.utf8).base64EncodedString(), t),
            // `{"` encodes to `eyJ`, as a token's header does: it read as a token cut short to one part (exit 2).
            ("base64 of the body", Data(body.utf8).base64EncodedString(), body),
            (
                "pretty body",
                body.replacingOccurrences(of: "{", with: "{\n  ").replacingOccurrences(of: "\":", with: "\" : ")
                    + "\n", body
            ),
        ]
        if isToken {
            let response =
                member == "signedTransactionInfo"
                ? #"{"signedTransactions":["\#(t)"]}"#
                : #"{"\#(member)":"\#(t)","revision":"1"}"#
            shapes += [
                ("quoted", "\"\(t)\"", t), ("single-quoted", "'\(t)'", t), ("Bearer", "Bearer \(t)", t),
                ("Authorization header", "Authorization: Bearer \(t)\r\n", t),
                ("wrapped in 64 columns", wrapped(t, every: 64) + "\n", t),
                ("wrapped in 76 columns, CRLF", wrapped(t, every: 76, separator: "\r\n"), t),
                ("notification body", body, body), ("API response", response, response),
                ("base64 of the API response", Data(response.utf8).base64EncodedString(), response),
                ("array of tokens", #"["\#(t)"]"#, #"["\#(t)"]"#),
                ("log line", "2024-06-01 INFO token=\(t) next=1\n", t),
                ("form body", "\(member)=\(t)&x=1", t), ("greeting before", "Hello,\nthe token:\n\(t)\n", t),
                ("text after", t + "\n\nThanks, support\n", t),
                ("issue tracker quote", quoted(t, every: 64, with: "| "), t),
                ("mail quote", quoted(t, every: 76, with: "> "), t),
                ("quoted-printable e-mail", quotedPrintableMail("Hello,\nthe token: \(t)\nBye\n"), t),
            ]
        } else {
            shapes += [
                ("quoted body", "'\(t)'", t), ("text before", "Body: " + t, t), ("text after", t + "\n-- end\n", t),
                ("greeting before", "Hello,\nthe notification we received:\n\n\(t)\n", t),
                ("signature after", t + "\n--\nSent from my phone\n", t),
                ("indented", "    " + t + "\n", t), ("tabs around", "\t" + t + "\t\n", t),
                ("CRLF pretty body", t.replacingOccurrences(of: "{", with: "{\r\n  ") + "\r\n", t),
                ("HTTP request", "POST /apple/notifications HTTP/1.1\r\nContent-Type: application/json\r\n\r\n" + t, t),
                (
                    "curl command",
                    "curl -X POST https://example.com/notify -H 'Content-Type: application/json' -d '\(t)'\n", t
                ),
                ("timestamped log line", "2024-06-01T12:00:00.123Z [notify] body=\(t) status=200\n", t),
            ]
        }
        return shapes.map { ($0.0, Array($0.1.utf8), $0.2) }
    }
}
