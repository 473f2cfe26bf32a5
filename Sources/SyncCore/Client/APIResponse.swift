public import FoundationEssentials

/// What a server answered, whatever the status: the status code, the headers and the whole body.
///
/// ```swift
/// let response = try await client.response(for: request)
/// if response.status == 304 { … }
/// let etag = response.headers.first(named: "ETag")
/// ```
public struct APIResponse: Sendable, Hashable {
    /// The status code, e.g. 200.
    public var status: Int
    /// The header fields as received, in order.
    public var headers: [HTTPHeader]
    /// The body, decompressed; empty when there was none.
    public var body: Data

    /// Makes a response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The header fields.
    ///   - body: The body.
    public init(status: Int, headers: [HTTPHeader], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
