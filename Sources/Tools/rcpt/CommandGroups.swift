import ArgumentParser
import ReceiptCrypto
import ReceiptRendering
import ReceiptValidation

/// The documents a command reads (`dump`, `verify`, `status`): files or directories, or - for standard input.
struct DocumentFiles: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "Receipts, JWS, notification bodies or API responses: files or directories, or - for standard input (the default when it is piped).",
            valueName: "file"))
    var files: [String] = []
}

/// Whom a command trusts: `--root`, else Apple's own root for each kind.
struct TrustOptions: ParsableArguments {
    @Option(
        name: .customLong("root"),
        help: ArgumentHelp(
            "Trust this root certificate (PEM or DER) instead of Apple's roots (Apple Root CA for receipts, Apple Root CA - G3 for JWS). Repeatable.",
            valueName: "cert"))
    var roots: [String] = []

    /// The anchors of a receipt: the given roots, or the bundled Apple Root CA.
    func anchors() throws -> TrustAnchors {
        do {
            return roots.isEmpty ? try TrustAnchors.appleRoot() : try TrustAnchors.load(files: roots)
        } catch {
            throw CommandFailure.usage(error.message)
        }
    }

    /// Inspection options that trust these roots: the given ones for every kind, else Apple Root CA for receipts
    /// and Apple Root CA - G3 for JWS.
    func inspectionOptions() throws -> InspectionOptions {
        var options = InspectionOptions(anchors: try anchors())
        if roots.isEmpty { options.jwsAnchors = .appleRootG3 }
        return options
    }

    /// The arguments that give these roots again, for a reproduction line.
    var arguments: [String] { roots.flatMap { ["--root", $0] } }
}

/// How text and JSON are written: colour, and JSON on one line.
struct OutputStyle: ParsableArguments {
    @Option(help: "Colour text output: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    @Flag(help: "Write JSON on one line, without indentation (smaller and faster for machines).")
    var compact = false

    /// The style text output is written in.
    var text: TextStyle { TextStyle(useColor: color.isOn) }
}
