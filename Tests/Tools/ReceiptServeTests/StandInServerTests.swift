import Foundation
import ReceiptServe
import ReceiptValidation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The HTTP server in front of the stand-in, driven over real sockets by clients that misbehave: bodies over the
/// limit (declared or streamed), requests that are not HTTP, more connections than allowed, a client that goes
/// silent, many clients at once. Each gets a clear answer, and the server keeps serving.
@Suite("Stand-in server under hostile clients", .serialized)
struct StandInServerTests {
    static func server(
        _ configure: (inout StandInServer.Limits) -> Void = { _ in }, log: Answers = Answers()
    ) throws -> StandInServer {
        var limits = StandInServer.Limits()
        configure(&limits)
        return try StandInServer.start(
            host: "127.0.0.1", port: 0, standIn: try AppleStandInTests.standIn(), limits: limits,
            log: { log.add($0.answer.summary) })
    }

    /// A blocking client socket; every read gives up after 60 s, so a server bug fails the test instead of
    /// hanging it.
    final class Client {
        let socket: Int32

        init(port: Int) throws {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var timeout = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        }

        deinit { close(socket) }

        /// Sends `bytes`; false once the server has closed the connection.
        @discardableResult
        func send(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes {
                    Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }

        func send(_ text: String) { send(Array(text.utf8)) }

        /// Whether the last `readToEnd()` ended because the server closed the connection (not the 60 s guard).
        private(set) var closedByServer = false

        /// Everything the server sends until it closes the connection.
        func readToEnd() -> String {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                if count <= 0 {
                    closedByServer = count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
                    break
                }
                received += buffer[..<count]
            }
            return String(decoding: received, as: UTF8.self)
        }

        /// One response, read up to its declared length.
        func readResponse() -> String {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let text = String(decoding: received, as: UTF8.self)
                if let end = text.range(of: "\r\n\r\n"),
                    let length = text[..<end.lowerBound].split(separator: "\r\n")
                        .first(where: { $0.lowercased().hasPrefix("content-length:") })
                        .flatMap({ Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }),
                    received.count >= text.utf8.distance(from: text.utf8.startIndex, to: end.upperBound) + length
                {
                    return text
                }
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return text }
                received += buffer[..<count]
            }
        }
    }

    static func request(_ path: String, body: String, keepAlive: Bool = false) -> String {
        "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n"
            + (keepAlive ? "" : "Connection: close\r\n") + "\r\n" + body
    }

    static let receiptBody = String(decoding: AppleStandInTests.body, as: UTF8.self)

    @Test("a real request is answered, and two on one kept-alive connection both are")
    func roundTrip() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try Client(port: server.port)
        client.send(Self.request("/sandbox/verifyReceipt", body: Self.receiptBody, keepAlive: true))
        let first = client.readResponse()
        #expect(first.hasPrefix("HTTP/1.1 200"))
        #expect(first.contains("\"status\":0"))
        client.send(Self.request("/verifyReceipt", body: Self.receiptBody))
        #expect(client.readToEnd().contains("\"status\":21007"))
    }

    @Test("a body declared or streamed over the limit is answered 413 and the connection closed")
    func oversizedBodies() throws {
        let log = Answers()
        let server = try Self.server({ $0.maximumBody = 65_536 }, log: log)
        defer { server.stop() }
        let declared = try Client(port: server.port)
        declared.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000000\r\n\r\n")
        #expect(declared.readToEnd().hasPrefix("HTTP/1.1 413"))

        let streamed = try Client(port: server.port)
        streamed.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = "4000\r\n" + String(repeating: "A", count: 0x4000) + "\r\n"
        for _ in 0..<64 where streamed.send(Array(chunk.utf8)) {}
        #expect(streamed.readToEnd().hasPrefix("HTTP/1.1 413"))
        #expect(log.all.count == 2 && log.all.allSatisfy { $0.contains("over 65536 bytes") }, "\(log.all)")
    }

    @Test("bytes that are not HTTP are answered 400")
    func notHTTP() throws {
        let log = Answers()
        let server = try Self.server(log: log)
        defer { server.stop() }
        for garbage in ["GARBAGE\r\n\r\n", "POST / HTTP/1.1\r\nContent-Length: -5\r\n\r\n", "\u{0}\u{1}\u{2}\r\n\r\n"] {
            let client = try Client(port: server.port)
            client.send(garbage)
            #expect(client.readToEnd().hasPrefix("HTTP/1.1 400"), "\(garbage.debugDescription)")
        }
        #expect(log.all.count == 3 && log.all.allSatisfy { $0.hasPrefix("HTTP 400") }, "\(log.all)")
    }

    @Test("connections beyond the limit are answered 503; closing one frees its place")
    func connectionLimit() throws {
        let server = try Self.server { $0.maximumConnections = 2 }
        defer { server.stop() }
        // Two kept-alive connections, each answered once so the server has admitted both.
        let held = try (0..<2).map { _ in try Client(port: server.port) }
        for client in held {
            client.send(Self.request("/verifyReceipt", body: "{}", keepAlive: true))
            #expect(client.readResponse().hasPrefix("HTTP/1.1 200"))
        }
        let third = try Client(port: server.port)
        #expect(third.readToEnd().hasPrefix("HTTP/1.1 503"))  // answered before it sends anything
        // Closing a held connection frees its place (the count drops when the server sees the close).
        held[0].send(Self.request("/verifyReceipt", body: "{}"))
        _ = held[0].readToEnd()
        var answered = false
        for _ in 0..<10_000 where !answered {
            let next = try Client(port: server.port)
            next.send(Self.request("/verifyReceipt", body: "{}"))
            answered = next.readToEnd().hasPrefix("HTTP/1.1 200")
        }
        #expect(answered)
    }

    @Test("a client that stops sending mid-request is disconnected")
    func silentClient() throws {
        let server = try Self.server { $0.idleSeconds = 1 }
        defer { server.stop() }
        let client = try Client(port: server.port)
        client.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"receipt")
        #expect(client.readToEnd().isEmpty)
        #expect(client.closedByServer)
    }

    @Test("a client that trickles a request byte by byte is cut at the request deadline")
    func tricklingClient() throws {
        let server = try Self.server {
            $0.idleSeconds = 60
            $0.requestSeconds = 1
        }
        defer { server.stop() }
        let client = try Client(port: server.port)
        client.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n")
        // A byte at a time, so the idle timer never fires, until the server closes the connection (or, without a
        // deadline, the body ends and the request is answered: then the test fails below).
        var sends = 0
        while sends < 10_000_000, client.send([0x41]) { sends += 1 }
        #expect(client.readToEnd().isEmpty)
        #expect(client.closedByServer)
    }

    @Test("a connection over the limit is answered 503 before it sends anything, and closed")
    func unadmittedAnsweredAtOnce() throws {
        let server = try Self.server { $0.maximumConnections = 1 }
        defer { server.stop() }
        let held = try Client(port: server.port)
        held.send(Self.request("/verifyReceipt", body: "{}", keepAlive: true))
        #expect(held.readResponse().hasPrefix("HTTP/1.1 200"))
        let extra = try Client(port: server.port)
        #expect(extra.readToEnd().hasPrefix("HTTP/1.1 503"))
        #expect(extra.closedByServer)
    }

    @Test("a client that pipelines requests and never reads the answers is disconnected; others are served")
    func clientThatNeverReads() throws {
        let server = try StandInServer.start(
            host: "127.0.0.1", port: 0, standIn: try AppleStandInTests.standIn(), log: { _ in })
        defer { server.stop() }
        let flooder = try Client(port: server.port)
        let request = Array("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        var batch: [UInt8] = []
        for _ in 0..<100 { batch += request }
        // At most 2 000 batches (7 MB of requests, 100 MB of answers owed): the server must hang up long before.
        var sent = 0
        while sent < 2_000, flooder.send(batch) { sent += 1 }
        #expect(sent < 2_000, "the server kept reading a client that never reads its answers")
        _ = flooder.readToEnd()
        #expect(flooder.closedByServer)
        let other = try Client(port: server.port)
        other.send(Self.request("/verifyReceipt", body: "{}"))
        #expect(other.readToEnd().hasPrefix("HTTP/1.1 200"))
    }

    @Test("64 clients at once are all answered")
    func manyClients() throws {
        let server = try Self.server()
        defer { server.stop() }
        let port = server.port
        let answers = Answers()
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            guard let client = try? Client(port: port) else { return }
            client.send(Self.request(index.isMultiple(of: 2) ? "/verifyReceipt" : "/nowhere", body: "{}"))
            answers.add(client.readToEnd())
        }
        #expect(answers.all.count == 64)
        #expect(answers.all.allSatisfy { $0.hasPrefix("HTTP/1.1 200") || $0.hasPrefix("HTTP/1.1 404") })
    }

    final class Answers: @unchecked Sendable {
        private let lock = NSLock()
        private var texts: [String] = []
        func add(_ text: String) { lock.withLock { texts.append(text) } }
        var all: [String] { lock.withLock { texts } }
    }
}
