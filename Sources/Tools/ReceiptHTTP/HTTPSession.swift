import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A target's requests, each answer waited for synchronously: `http://` through SwiftNIO (`NIOHTTPExchange`: every
/// bound rcpt's own, nothing decompressed); `https://` through one URLSession (a conformance run's threads each
/// wait for their own). What the endpoint answered is taken as it came: a redirect is not followed (a 3xx is the
/// endpoint's answer, and following it as a GET would turn a refusal into someone else's 200), each request goes on
/// a connection of its own (`Connection: close`: one document's answer never depends on a connection an earlier one
/// left behind), and a body is kept only to `bodyLimit` bytes (the request is cut there: a hostile endpoint cannot
/// make rcpt hold its answer whole).
final class HTTPSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    enum Answer: Sendable {
        case answered(status: Int, body: Data)
        case timedOut
        case failed(String)
    }

    /// Bodies are kept to this many bytes.
    static let bodyLimit = 1 << 20

    /// One request in flight: what has come so far, and the signal that it ended.
    final class Pending: @unchecked Sendable {
        var status: Int?
        var body = Data()
        var cut = false
        var error: Error?
        let done = DispatchSemaphore(value: 0)
    }

    private let lock = NSLock()
    private var pending: [Int: Pending] = [:]
    private var session: URLSession?

    init(timeout: Double) {
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    func send(_ request: URLRequest, within timeout: Double) -> Answer {
        if let url = request.url, url.scheme?.lowercased() == "http" {
            return NIOHTTPExchange.send(
                url: url, method: request.httpMethod ?? "POST",
                headers: (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                body: Array(request.httpBody ?? Data()), timeout: timeout)
        }
        guard let session else { return .failed("no HTTP session") }
        var request = request
        if request.value(forHTTPHeaderField: "Connection") == nil {
            request.setValue("close", forHTTPHeaderField: "Connection")
        }
        let task = session.dataTask(with: request)
        let state = Pending()
        lock.withLock { pending[task.taskIdentifier] = state }
        defer { lock.withLock { pending[task.taskIdentifier] = nil } }
        task.resume()
        // URLSession enforces the timeout; the wait has a margin so a lost callback cannot hang the run.
        if state.done.wait(timeout: .now() + timeout + 5) == .timedOut {
            task.cancel()
            return .timedOut
        }
        return lock.withLock {
            if let status = state.status, state.error == nil || state.cut {
                return .answered(status: status, body: state.body)
            }
            if let error = state.error { return Self.answer(for: error) }
            return .failed("no HTTP answer")
        }
    }

    private func state(of task: URLSessionTask) -> Pending? {
        lock.withLock { pending[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if let state = state(of: dataTask), let http = response as? HTTPURLResponse {
            lock.withLock { state.status = http.statusCode }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let state = state(of: dataTask) else { return }
        let full = lock.withLock {
            let room = Self.bodyLimit - state.body.count
            state.body.append(data.prefix(max(0, room)))
            if data.count > room { state.cut = true }
            return state.cut
        }
        if full { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let state = state(of: task) else { return }
        lock.withLock {
            if let response = task.response as? HTTPURLResponse, state.status == nil {
                state.status = response.statusCode
            }
            state.error = error
        }
        state.done.signal()
    }

    /// What a failed request comes to, in words (URLError's numbers mean nothing to a reader).
    static func answer(for error: Error) -> Answer {
        guard let error = error as? URLError else { return .failed("\(error)") }
        switch error.code {
        case .timedOut: return .timedOut
        case .cannotConnectToHost: return .failed("connection refused")
        case .networkConnectionLost: return .failed("connection dropped before an answer")
        case .cannotFindHost, .dnsLookupFailed: return .failed("host not found")
        case .badServerResponse, .unsupportedURL: return .failed("not an HTTP answer")
        case .badURL: return .failed("bad URL")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return .failed("TLS failed: the server's certificate is not trusted, or the handshake failed")
        case .httpTooManyRedirects, .redirectToNonExistentLocation: return .failed("redirected")
        default: return .failed("URL error \(error.code.rawValue)")
        }
    }
}
