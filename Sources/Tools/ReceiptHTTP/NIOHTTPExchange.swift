import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One `http://` request and its answer through SwiftNIO's HTTP/1.1 codec, on a connection of its own: the server
/// ecosystem's client pieces, with every bound in rcpt's hands. Nothing is decompressed (no Accept-Encoding is sent
/// and a compressed answer stays the bytes that came), the body is kept to `HTTPSession.bodyLimit` bytes and the
/// connection closed there, no `Expect: 100-continue` holds the body back, and one deadline covers connecting,
/// sending and reading. A server that closes early, answers garbage or trickles is an answer of words, never a trap.
enum NIOHTTPExchange {
    /// Sends `body` to `url` (its scheme `http`) with `method` and `headers`, within `timeout` seconds.
    static func send(
        url: URL, method: String, headers: [(name: String, value: String)], body: [UInt8], timeout: Double
    ) -> HTTPSession.Answer {
        guard let rawHost = url.host, !rawHost.isEmpty else { return .failed("bad URL") }
        let host = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        let port = url.port ?? 80
        guard (1...65_535).contains(port) else { return .failed("bad URL") }
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let state = ExchangeState(promise: eventLoop.makePromise(of: HTTPSession.Answer.self))
        let allowed = TimeAmount.nanoseconds(Int64(max(0.001, timeout) * 1_000_000_000))
        let deadline = eventLoop.scheduleTask(in: allowed) { state.finish(.timedOut) }
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: requestTarget(url))
        let authority = host.contains(":") ? "[\(host)]" : host
        head.headers.add(name: "Host", value: url.port.map { "\(authority):\($0)" } ?? authority)
        for header in headers { head.headers.add(name: header.name, value: header.value) }
        // Credentials in the URL (`http://user:password@host/`) as Basic authentication, as curl sends them.
        if let user = url.user(percentEncoded: false), !head.headers.contains(name: "Authorization") {
            let credentials = Array("\(user):\(url.password(percentEncoded: false) ?? "")".utf8)
            head.headers.add(name: "Authorization", value: "Basic " + Data(credentials).base64EncodedString())
        }
        if !head.headers.contains(name: "Connection") { head.headers.add(name: "Connection", value: "close") }
        head.headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
        let request = head
        ClientBootstrap(group: eventLoop)
            .connectTimeout(allowed)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ResponseReader(state: state))
                }
            }
            .connect(host: host, port: port)
            .whenComplete { result in
                switch result {
                case .success(let channel):
                    state.channel = channel
                    guard !state.finished else {
                        channel.close(promise: nil)
                        return
                    }
                    var buffer = channel.allocator.buffer(capacity: body.count)
                    buffer.writeBytes(body)
                    channel.write(HTTPClientRequestPart.head(request), promise: nil)
                    channel.write(HTTPClientRequestPart.body(.byteBuffer(buffer)), promise: nil)
                    channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
                case .failure(let error):
                    state.finish(Self.answer(connecting: error))
                }
            }
        let answer = (try? state.promise.futureResult.wait()) ?? .failed("no HTTP answer")
        deadline.cancel()
        return answer
    }

    /// The path and query as the URL spells them (percent-encoded), `/` when it has none.
    static func requestTarget(_ url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "/" }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return components.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }

    /// What a connection that could not be made comes to, in words.
    static func answer(connecting error: Error) -> HTTPSession.Answer {
        if case ChannelError.connectTimeout = error { return .timedOut }
        if let error = error as? NIOConnectionError {
            if error.connectionErrors.isEmpty { return .failed("host not found") }
            if error.connectionErrors.allSatisfy({ "\($0.error)".contains("refused") }) {
                return .failed("connection refused")
            }
        }
        return .failed("cannot connect: \(String(describing: error).prefix(120))")
    }

    /// The one answer of an exchange, set once: by the answer, the connection's end, an error or the deadline,
    /// whichever comes first; the connection is closed then. Touched on the exchange's event loop only.
    final class ExchangeState: @unchecked Sendable {
        let promise: EventLoopPromise<HTTPSession.Answer>
        var channel: Channel?
        private(set) var finished = false

        init(promise: EventLoopPromise<HTTPSession.Answer>) { self.promise = promise }

        func finish(_ answer: HTTPSession.Answer) {
            guard !finished else { return }
            finished = true
            promise.succeed(answer)
            channel?.close(promise: nil)
        }
    }

    /// Reads the response: its status and its body, to `HTTPSession.bodyLimit` bytes.
    final class ResponseReader: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        let state: ExchangeState
        private var status: Int?
        private var body: [UInt8] = []

        init(state: ExchangeState) { self.state = state }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                status = Int(head.status.code)
            case .body(var buffer):
                let room = HTTPSession.bodyLimit - body.count
                if buffer.readableBytes > room {
                    body += buffer.readBytes(length: max(0, room)) ?? []
                    state.finish(.answered(status: status ?? 0, body: Data(body)))  // cut: the rest is not read
                } else {
                    body += buffer.readBytes(length: buffer.readableBytes) ?? []
                }
            case .end:
                state.finish(status.map { .answered(status: $0, body: Data(body)) } ?? .failed("no HTTP answer"))
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            state.finish(
                .failed(status == nil ? "connection dropped before an answer" : "connection dropped in the answer"))
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            guard error is HTTPParserError else { return state.finish(.failed("connection failed: \(error)")) }
            // After a status line, the answer broke off: a body shorter than its Content-Length (the server
            // closed early) or bytes that are not HTTP (a trial was told "not an HTTP answer" of an HTTP 200).
            state.finish(
                .failed(
                    status.map { "an HTTP \($0) answer cut short (the body broke off after \(body.count) bytes)" }
                        ?? "not an HTTP answer"))
        }
    }
}
