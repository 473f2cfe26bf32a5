import SyncSupport

/// A fetch that got no usable answer: the cause is named, the URL's secrets are not.
package struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: String, Sendable, Hashable {
        case invalidURL = "invalid_url"
        case connection
        case timeout
        case bodyTooLarge = "body_too_large"
        case truncated
        case tls
        case file
    }

    private let code: Code
    package let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// Whether another attempt may succeed: connection failures, timeouts and cut-off bodies.
    package var isRetryable: Bool { code == .connection || code == .timeout || code == .truncated }

    /// A fixed string per kind of failure, for metrics and for syncd_runs.
    package var shortDescription: String { code.rawValue }

    package static func == (lhs: FetchError, rhs: FetchError) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }

    package static let invalidURL = FetchError(.invalidURL, "the URL is not valid")
    package static let connection = FetchError(.connection, "the connection failed")
    package static let timeout = FetchError(.timeout, "the request timed out")
    package static let bodyTooLarge = FetchError(.bodyTooLarge, "the body is larger than max_body")
    package static let truncated = FetchError(.truncated, "the body ended early")
    package static let file = FetchError(.file, "the file cannot be read")

    static func invalidURL(_ detail: String) -> FetchError { FetchError(.invalidURL, detail) }
    package static func connection(_ detail: String) -> FetchError { FetchError(.connection, detail) }
    static func timeout(_ detail: String) -> FetchError { FetchError(.timeout, detail) }
    package static func bodyTooLarge(limit: Int) -> FetchError {
        FetchError(.bodyTooLarge, "the body is larger than max_body (\(ByteSize.format(limit)))")
    }
    package static func spoolFull(limit: Int) -> FetchError {
        FetchError(.bodyTooLarge, "the pages of the run are larger than \(ByteSize.format(limit)) together")
    }
    static func truncated(_ detail: String) -> FetchError { FetchError(.truncated, detail) }
    package static func file(_ detail: String) -> FetchError { FetchError(.file, detail) }
    static func tls(_ detail: String) -> FetchError { FetchError(.tls, detail) }
}
