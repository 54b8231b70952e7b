import ReceiptJSON

/// One request to the stand-in, as the server read it: the method, the path without its query, the headers and
/// the whole body (bounded by the server before it gets here).
package struct StandInRequest: Sendable {
    package var method: String
    package var path: String
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    package init(method: String, path: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = String(method.prefix(32))
        // Every path served is short: a longer one (NIO takes 80 KB) is cut, so that it is never echoed or kept whole.
        self.path = String(path.prefix { $0 != "?" }.prefix(512))
        self.headers = headers
        self.body = body
    }

    /// The value of the header `name` (case-insensitive), the first when repeated.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// The stand-in's answer: the HTTP status, the body, and a short summary for the log.
package struct StandInAnswer: Sendable {
    package var httpStatus: Int
    package var contentType: String
    package var body: [UInt8]
    /// What was answered, for the log: `status 21007`, `HTTP 503`, `signedTransactionInfo 2000000123`.
    package var summary: String
    /// The verifyReceipt `status` answered, when the body has one.
    package var appleStatus: Int?

    package init(httpStatus: Int, contentType: String, body: [UInt8], summary: String, appleStatus: Int? = nil) {
        self.httpStatus = httpStatus
        self.contentType = contentType
        self.body = body
        self.summary = summary
        self.appleStatus = appleStatus
    }

    /// A JSON answer written by `body`.
    static func json(_ httpStatus: Int, summary: String, _ body: (inout JSONWriter) -> Void) -> StandInAnswer {
        StandInAnswer(
            httpStatus: httpStatus, contentType: "application/json",
            body: JSONWriter.document(pretty: false, body), summary: summary)
    }

    /// An error answer: `{"errorCode": code, "errorMessage": message}`, the App Store Server API's shape.
    static func error(_ httpStatus: Int, code: Int64, _ message: String) -> StandInAnswer {
        json(httpStatus, summary: "error \(code): \(message)") { json in
            json.object { json in
                json.key("errorCode")
                json.number(code)
                json.key("errorMessage")
                json.string(message)
            }
        }
    }
}

/// One line of the stand-in's log: a request and what was answered.
package struct StandInLogEntry: Sendable {
    /// The number of the request, from 1.
    package var sequence: Int
    package var milliseconds: Int64
    package var method: String
    package var path: String
    package var requestBytes: Int
    package var scenario: String
    package var answer: StandInAnswer

    /// Whether this was a call of one of the two verifyReceipt endpoints (a call elsewhere is answered 404).
    package var askedVerifyReceipt: Bool { path == "/verifyReceipt" || path == "/sandbox/verifyReceipt" }

    package init(
        sequence: Int, milliseconds: Int64, method: String, path: String, requestBytes: Int, scenario: String,
        answer: StandInAnswer
    ) {
        self.sequence = sequence
        self.milliseconds = milliseconds
        self.method = method
        self.path = path
        self.requestBytes = requestBytes
        self.scenario = scenario
        self.answer = answer
    }

    /// The entry as one JSON line (`rcpt.serve/1`).
    package var jsonLine: [UInt8] {
        JSONWriter.document(pretty: false) { json in
            json.object { json in
                json.member("schema", "rcpt.serve/1")
                json.key("event")
                json.string("request")
                json.key("sequence")
                json.number(sequence)
                json.key("time_ms")
                json.number(milliseconds)
                json.key("method")
                json.string(method)
                json.key("path")
                json.string(path)
                json.key("request_bytes")
                json.number(requestBytes)
                json.key("scenario")
                json.string(scenario)
                json.key("http_status")
                json.number(answer.httpStatus)
                json.key("apple_status")
                json.number(answer.appleStatus)
                json.key("answer")
                json.string(answer.summary)
            }
        }
    }
}
