import ArgumentParser
import Foundation
import ReceiptDiagnostics

/// The `rcpt` command: a forensics and fuzzing toolkit for Apple App Store receipts.
struct Rcpt: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rcpt",
        abstract: "Inspect, verify and fuzz Apple App Store receipts.",
        discussion: """
            Every command that reads documents takes a receipt or JWS file, or - for standard input, as raw \
            DER/BER, base64, PEM, a verifyReceipt JSON body, a JWS, a notification body or an API response \
            (auto-detected, also inside the text people paste around them).

            Exit codes: 0 success, 1 negative verdict (e.g. an invalid receipt), 2 usage error or unreadable input.

            Examples:
              rcpt dump --brief receipt.der
              rcpt verify --bundle-id com.example.app receipt.der
              rcpt ca init testca && rcpt mutate receipt.der --all --ca testca --out-dir suite
            """,
        version: ToolVersion.text,
        subcommands: [
            Dump.self, Verify.self, Status.self, Report.self, Diff.self, Mutate.self, Conformance.self,
            FuzzValidator.self, Notify.self, Serve.self, Build.self,
            CertificateAuthority.self,
        ]
    )
}

/// Runs the command line and maps every outcome onto the exit codes 0, 1 and 2.
@main
enum Main {
    static func main() {
        // A reader that stops reading (`rcpt dump … | head`) must not end rcpt by a signal: with SIGPIPE caught, a
        // write to a closed pipe fails with EPIPE, and Console stops writing. Caught, not ignored: an ignored signal
        // stays ignored in the validators rcpt starts, a caught one is the default again after exec.
        signal(SIGPIPE) { _ in }
        if CommandLine.arguments.count == 1 {
            Console.standardError(Rcpt.helpMessage() + "\n")
            Foundation.exit(2)
        }
        do {
            var command = try Rcpt.parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            let code = Rcpt.exitCode(for: error)
            if code == .success {
                print(Rcpt.fullMessage(for: error))
                Foundation.exit(0)
            }
            if let unknown = UnknownOption.first(in: CommandLine.arguments, root: Rcpt.self) {
                let usage = Rcpt.usageString(for: unknown.command)
                Console.standardError(
                    "Error: unknown option '\(unknown.name)'\nUsage: \(usage)\n  See '\(unknown.path) --help' for more information.\n"
                )
                Foundation.exit(2)
            }
            Console.standardError(Rcpt.fullMessage(for: error) + "\n")
            Foundation.exit(2)
        }
    }
}
