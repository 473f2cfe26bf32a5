/// What a handler of ``LoopbackHTTPServer`` answers, and how the server delivers it.
///
/// The server adds `Content-Length` (the full body's length) unless the handler set one, or the status has no body
/// (1xx, 204, 304). Responses to `HEAD` carry the same head and no body.
///
/// ```swift
/// UpstreamResponse.json(Array(#"{"ok":true}"#.utf8), headers: [("ETag", #""v1""#)])
/// UpstreamResponse(status: 200, body: bytes, delivery: .truncated(afterBytes: 100))
/// ```
package struct UpstreamResponse: Sendable {
    /// How much of the response reaches the client.
    package enum Delivery: Sendable {
        /// The head with `Content-Length`, then the whole body; the connection stays open for the next request
        /// unless the request asked to close it.
        case complete
        /// The head declaring the full body's length, the first `afterBytes` bytes of the body (clamped to
        /// `0...body.count`), then the connection is closed.
        case truncated(afterBytes: Int)
        /// Nothing at all, not even the head, until the server shuts down and closes the connection: for client
        /// timeouts.
        case stalled
    }

    /// The status code, e.g. 200.
    package var status: Int
    /// Header fields in the order they are sent.
    package var headers: [(name: String, value: String)]
    /// The body; ignored for `HEAD` requests and statuses that have none.
    package var body: [UInt8]
    package var delivery: Delivery

    package init(
        status: Int = 200,
        headers: [(name: String, value: String)] = [],
        body: [UInt8] = [],
        delivery: Delivery = .complete
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delivery = delivery
    }

    /// A response with `Content-Type: application/json` before `headers` (unless they set a content type).
    package static func json(
        _ body: [UInt8],
        status: Int = 200,
        headers: [(name: String, value: String)] = [],
        delivery: Delivery = .complete
    ) -> UpstreamResponse {
        let setsContentType = headers.contains { $0.name.lowercased() == "content-type" }
        let allHeaders = setsContentType ? headers : [("Content-Type", "application/json")] + headers
        return UpstreamResponse(status: status, headers: allHeaders, body: body, delivery: delivery)
    }
}
