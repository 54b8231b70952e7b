import ArgumentParser
import ReceiptRendering
import ReceiptValidation

/// `rcpt dump`: show everything in a receipt.
struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show everything in a receipt: container, certificates, signers, verification and every attribute.",
        discussion: """
            Malformed input is shown as far as it could be read, followed by the error and its byte offset.

            Exit codes: 0 the receipt was read completely (whatever its validity; use verify for a verdict), \
            2 unreadable input or usage error.
            """
    )

    @OptionGroup var options: ReceiptInputOptions

    func run() throws {
        try Console.guarded {
            let input = try options.readInput()
            let inspection = Inspector.inspect(input, options: InspectionOptions(
                anchors: try options.anchors(), time: options.evaluationTime, inputFormat: options.inputFormat))
            switch options.format {
            case .json:
                DumpJSON.stream(inspection, pretty: !options.compact) { Console.write($0) }
            case .text:
                DumpText(style: TextStyle(useColor: options.useColor()))
                    .stream(inspection, name: options.displayName) { Console.write($0) }
            }
            return inspection.readError == nil ? 0 : 2
        }
    }
}
