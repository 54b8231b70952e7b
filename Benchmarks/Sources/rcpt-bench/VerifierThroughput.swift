import Foundation
import Rcpt

/// `rcpt-bench verifier DIR`: every token file in DIR verified in-process with `AppStoreVerifier` (one per app and
/// environment, as a server configures it, shared by all tasks), from a task group of one task per core. Prints
/// documents, accepted, CPU seconds, per CPU-second and per wall second.
enum VerifierThroughput {
    static func run(directory: String) async {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        let texts = names.compactMap { FileManager.default.contents(atPath: directory + "/" + $0) }.map { [UInt8]($0) }
        var verifiers: [String: AppStoreVerifier] = [:]
        let jobs: [(AppStoreVerifier, [UInt8])] = texts.compactMap { text in
            let scope = scope(of: text)
            let key = "\(scope.bundleId)|\(scope.environment)|\(scope.appAppleId)"
            if verifiers[key] == nil {
                verifiers[key] = try? AppStoreVerifier(
                    bundleId: scope.bundleId, appAppleId: scope.appAppleId,
                    environment: AppStoreEnvironment(rawValue: scope.environment))
            }
            return verifiers[key].map { ($0, text) }
        }
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let cpuBefore = cpuSeconds()
        let clock = ContinuousClock()
        var accepted = 0
        let wall = await clock.measure {
            accepted = await withTaskGroup(of: Int.self) { group in
                for core in 0..<cores {
                    group.addTask {
                        stride(from: core, to: jobs.count, by: cores).reduce(0) { count, index in
                            let (verifier, text) = jobs[index]
                            return count + ((try? verifier.verify(text)) == nil ? 0 : 1)
                        }
                    }
                }
                return await group.reduce(0, +)
            }
        }
        let cpu = cpuSeconds() - cpuBefore
        let wallSeconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        print(
            String(
                format: "verifier documents=%d accepted=%d cpu=%.2f per_cpu_s=%.0f per_wall_s=%.0f", jobs.count,
                accepted,
                cpu, Double(jobs.count) / max(cpu, 1e-9), Double(jobs.count) / max(wallSeconds, 1e-9)))
    }

    /// The app a token (or notification body) is for, read from its payload without verifying it: how a benchmark
    /// picks the verifier a server would have configured.
    static func scope(of text: [UInt8]) -> (bundleId: String, environment: String, appAppleId: Int64?) {
        var token = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if token.hasPrefix("{"), let body = try? JSONSerialization.jsonObject(with: Data(text)) as? [String: Any],
            let signed = body["signedPayload"] as? String
        {
            token = signed
        }
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return ("unknown", "Sandbox", nil) }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return ("unknown", "Sandbox", nil) }
        let scope = claims["data"] as? [String: Any] ?? claims
        let environment = scope["environment"] as? String ?? "Sandbox"
        let appAppleId = (scope["appAppleId"] as? NSNumber)?.int64Value
        return (
            scope["bundleId"] as? String ?? "unknown", environment,
            appAppleId ?? (environment == "Production" ? 0 : nil)
        )
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
