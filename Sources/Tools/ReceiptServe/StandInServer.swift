import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// The HTTP/1.1 server in front of an `AppleStandIn`: SwiftNIO's, with bounds a hostile client cannot pass. A
/// body over `maximumBody` is answered 413 and the connection closed; a connection silent for `idleSeconds`, or a
/// request not ended within `requestSeconds`, is closed; connections beyond `maximumConnections` are answered 503 at
/// once and closed; a request NIO cannot parse is answered 400; a client that sends more requests while its earlier
/// answers pile up unsent (pipelining, never reading) is disconnected.
package final class StandInServer: Sendable {
    /// The bounds the server keeps, whatever clients send.
    package struct Limits: Sendable {
        package var maximumBody = 16 << 20
        package var maximumConnections = 128
        package var idleSeconds: Int64 = 10
        /// The longest a request may take from its first line to its end.
        package var requestSeconds: Int64 = 30

        package init() {}
    }

    /// The port the server listens on (the one the system chose for port 0).
    package let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let channel: Channel

    private init(port: Int, group: MultiThreadedEventLoopGroup, channel: Channel) {
        self.port = port
        self.group = group
        self.channel = channel
    }

    /// Starts serving `standIn` on `host`:`port`; `log` is given every request answered, on a server thread.
    package static func start(
        host: String, port: Int, standIn: AppleStandIn, limits: Limits = Limits(),
        log: @escaping @Sendable (StandInLogEntry) -> Void
    ) throws -> StandInServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let connections = NIOLockedValueBox(0)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let admitted = connections.withLockedValue { count -> Bool in
                    guard count < limits.maximumConnections else { return false }
                    count += 1
                    return true
                }
                if admitted {
                    channel.closeFuture.whenComplete { _ in connections.withLockedValue { $0 -= 1 } }
                }
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    guard admitted else {
                        // Over the limit: NIO's response encoder alone, a 503 at once, and the connection closed.
                        try pipeline.addHandler(HTTPResponseEncoder())
                        try pipeline.addHandler(OverloadHandler(standIn: standIn, limits: limits, log: log))
                        return
                    }
                    try pipeline.addHandler(IdleStateHandler(readTimeout: .seconds(limits.idleSeconds)))
                    try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                    try pipeline.addHandler(StandInHandler(standIn: standIn, limits: limits, log: log))
                }
            }
            .childChannelOption(.socketOption(.so_reuseaddr), value: 1)
        do {
            let channel = try bootstrap.bind(host: host, port: port).wait()
            return StandInServer(port: channel.localAddress?.port ?? port, group: group, channel: channel)
        } catch {
            try? group.syncShutdownGracefully()
            throw ListenFailure(
                reason: (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)")
        }
    }

    /// Why the server could not listen: the system's words (`Address already in use`).
    package struct ListenFailure: Error, CustomStringConvertible {
        package var reason: String
        package var description: String { reason }
    }

    /// Stops listening, closes every connection and ends the server's threads.
    package func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

/// One connection's requests: the body gathered up to the limit, then answered by the stand-in.
private final class StandInHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let standIn: AppleStandIn
    private let limits: StandInServer.Limits
    private let log: @Sendable (StandInLogEntry) -> Void
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    /// Set once the connection was refused (413, 503): nothing it sends after is read.
    private var refused = false
    /// Closes a request that has not ended within `requestSeconds` of its head, however slowly bytes trickle in.
    private var deadline: Scheduled<Void>?

    init(standIn: AppleStandIn, limits: StandInServer.Limits, log: @escaping @Sendable (StandInLogEntry) -> Void) {
        self.standIn = standIn
        self.limits = limits
        self.log = log
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            // A client that sends more while its earlier answers pile up unsent (pipelining, never reading) is
            // disconnected: what it is owed would grow without bound.
            guard context.channel.isWritable else {
                refused = true
                context.close(promise: nil)
                return
            }
            self.head = head
            body = []
            let channel = context.channel
            deadline?.cancel()
            deadline = context.eventLoop.scheduleTask(in: .seconds(limits.requestSeconds)) {
                channel.close(promise: nil)
            }
            let declared = head.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
            if declared > limits.maximumBody {
                refuse(context, 413, "the body is over \(limits.maximumBody) bytes")
            }
        case .body(let chunk):
            guard !refused else { return }
            guard body.count + chunk.readableBytes <= limits.maximumBody else {
                refuse(context, 413, "the body is over \(limits.maximumBody) bytes")
                return
            }
            body += chunk.readableBytesView
        case .end:
            deadline?.cancel()
            deadline = nil
            guard let head else { return }
            let headers = head.headers.map { (name: $0.name, value: $0.value) }
            let entry = standIn.answer(
                StandInRequest(method: head.method.rawValue, path: head.uri, headers: headers, body: body))
            body = []
            self.head = nil
            log(entry)
            respond(context, entry.answer, version: head.version, keepAlive: head.isKeepAlive)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if error is HTTPParserError, !refused {  // answered 400 by NIO's HTTPServerProtocolErrorHandler before this one
            let answer = StandInAnswer(
                httpStatus: 400, contentType: "", body: [], summary: "HTTP 400: not an HTTP request (\(error))")
            log(
                standIn.record(
                    refusal: answer, method: head?.method.rawValue ?? "", path: head?.uri ?? "", bytes: body.count))
        }
        context.close(promise: nil)
    }

    /// Answers `status` with `message` and closes the connection, ignoring the rest of the request.
    private func refuse(_ context: ChannelHandlerContext, _ status: Int, _ message: String) {
        refused = true
        let answer = StandInAnswer.error(status, code: Int64(status) * 10_000, message)
        let path = head.map { StandInRequest(method: "", path: $0.uri).path } ?? ""
        log(standIn.record(refusal: answer, method: head?.method.rawValue ?? "", path: path, bytes: body.count))
        body = []
        respond(context, answer, version: head?.version ?? .http1_1, keepAlive: false)
    }

    private func respond(
        _ context: ChannelHandlerContext, _ answer: StandInAnswer, version: HTTPVersion, keepAlive: Bool
    ) {
        let written = answer.write(to: context, version: version, keepAlive: keepAlive)
        if !keepAlive {
            let channel = context.channel
            written.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}

extension StandInAnswer {
    /// Writes the answer as an HTTP response through NIO's encoder in `context`'s pipeline; the future of its end.
    fileprivate func write(to context: ChannelHandlerContext, version: HTTPVersion, keepAlive: Bool)
        -> EventLoopFuture<Void>
    {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let head = HTTPResponseHead(
            version: version, status: HTTPResponseStatus(statusCode: httpStatus), headers: headers)
        context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        let buffer = context.channel.allocator.buffer(bytes: body)
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(buffer))), promise: nil)
        return context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)))
    }
}

/// A connection over the limit: answered 503 as soon as it opens, before it sends anything, and closed, so it never
/// waits for, or holds a descriptor through, a request of its own.
private final class OverloadHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let standIn: AppleStandIn
    private let limits: StandInServer.Limits
    private let log: @Sendable (StandInLogEntry) -> Void

    init(standIn: AppleStandIn, limits: StandInServer.Limits, log: @escaping @Sendable (StandInLogEntry) -> Void) {
        self.standIn = standIn
        self.limits = limits
        self.log = log
    }

    func channelActive(context: ChannelHandlerContext) {
        let answer = StandInAnswer.error(
            503, code: 5_030_000, "rcpt serve has \(limits.maximumConnections) connections open; try again")
        log(standIn.record(refusal: answer, method: "", path: "", bytes: 0))
        let channel = context.channel
        answer.write(to: context, version: .http1_1, keepAlive: false).whenComplete { _ in channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}  // whatever it sends is not read

    func errorCaught(context: ChannelHandlerContext, error: Error) { context.close(promise: nil) }
}
