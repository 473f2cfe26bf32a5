/// What ``FaultServer`` writes for one request, byte for byte: the parts in order, then the connection is closed
/// (every answer carries `Connection: close`, so no client reuses a connection a fault may have left in any state).
///
/// ```swift
/// // A head promising 1,000 bytes, 10 of them, then a reset.
/// FaultAnswer(parts: [.bytes(FaultAnswer.head(status: 200, headers: [("Content-Length", "1000")])),
///                     .bytes(Array(repeating: 0x20, count: 10)), .reset])
/// ```
package struct FaultAnswer: Sendable {
    /// One step of the answer.
    package enum Part: Sendable {
        /// These bytes, at once.
        case bytes([UInt8])
        /// `count` copies of `byte`, generated in pieces as the client reads them, never held whole.
        case filler(UInt8, count: Int)
        /// These bytes one at a time, `every` apart (NIO scheduled tasks: the client waits, nobody sleeps).
        case drip([UInt8], every: Duration)
        /// A TCP reset (`SO_LINGER` 0, then close): whatever was not yet read is lost; no later part is played.
        case reset
    }

    package var parts: [Part]

    package init(parts: [Part]) {
        self.parts = parts
    }

    /// A status line and header fields, with `Connection: close` added, ending with the empty line.
    package static func head(status: Int, reason: String? = nil, headers: [(name: String, value: String)]) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason ?? HTTPReason.phrase(status))\r\n"
        for (name, value) in headers {
            text += "\(name): \(value)\r\n"
        }
        text += "Connection: close\r\n\r\n"
        return Array(text.utf8)
    }

    /// A complete response with a truthful `Content-Length`.
    package static func complete(
        status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = []
    ) -> FaultAnswer {
        let allHeaders = headers + [("Content-Length", String(body.count))]
        return FaultAnswer(parts: [.bytes(head(status: status, headers: allHeaders) + body)])
    }

    /// A complete `application/json` response with a truthful `Content-Length`.
    package static func json(
        _ body: [UInt8], status: Int = 200, headers: [(name: String, value: String)] = []
    ) -> FaultAnswer {
        complete(status: status, headers: [("Content-Type", "application/json")] + headers, body: body)
    }
}

/// The reason phrases the fault server writes; the client reads none of them.
private enum HTTPReason {
    static func phrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 302: "Found"
        case 304: "Not Modified"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
