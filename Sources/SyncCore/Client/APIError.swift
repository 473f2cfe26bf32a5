import SyncHTTP
import SyncSupport

/// Why a fetch through ``APIClient`` returned no value: a ``code`` to react to, one sentence to show, and what a
/// caller needs for that kind of failure (the status and headers of a non-2xx answer, the decoding path).
///
/// A struct with an opaque code rather than an enum, so that a new kind of failure breaks no embedder's `switch`.
/// `==` compares codes only, so the static members match any error of their kind. The description never
/// holds a secret.
///
/// ```swift
/// do {
///     let user = try await client.fetch(request, as: User.self)
/// } catch let error where error.code == .status && error.status == 404 {
///     // not there
/// } catch {
///     print(error)  // the body cannot be decoded: address.geo.lat (real): found string "tall"
/// }
/// ```
public struct APIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case invalidURL = "invalid_url"
            case credential
            case transport
            case timeout
            case bodyTooLarge = "body_too_large"
            case status
            case emptyBody = "empty_body"
            case decoding
        }

        private let base: Base

        /// The request's URL cannot be built.
        public static let invalidURL = Code(base: .invalidURL)
        /// The credential's secret cannot be read.
        public static let credential = Code(base: .credential)
        /// No answer came: the connection was refused or cut, TLS failed, or the answer was not HTTP.
        public static let transport = Code(base: .transport)
        /// No complete answer came within the client's timeout.
        public static let timeout = Code(base: .timeout)
        /// The body was larger than the client's limit (``APIError/limit``).
        public static let bodyTooLarge = Code(base: .bodyTooLarge)
        /// A status other than 2xx (``APIError/status-property``, ``APIError/headers``, ``APIError/bodyPrefix``).
        public static let status = Code(base: .status)
        /// A 2xx with no body where one was to be decoded.
        public static let emptyBody = Code(base: .emptyBody)
        /// The body is not what the model expected (``APIError/decodingFailure``).
        public static let decoding = Code(base: .decoding)

        /// A fixed name, such as `status` or `body_too_large`: for metrics and logs.
        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// The failure as one sentence, e.g. `the server answered 404 Not Found: {"error":"not found"}`.
    public let description: String
    /// For ``Code/status``: the HTTP status.
    public let status: Int?
    /// For ``Code/status``: the answer's headers.
    public let headers: [HTTPHeader]
    /// For ``Code/status``: the start of the body as text, at most ``bodyPrefixLength`` bytes.
    public let bodyPrefix: String?
    /// For ``Code/decoding``: where, what was expected, and what was found.
    public let decodingFailure: DecodingFailure?
    /// For ``Code/bodyTooLarge``: the limit, in bytes.
    public let limit: Int?

    /// How many bytes of a non-2xx body ``bodyPrefix`` keeps.
    public static let bodyPrefixLength = 256

    private init(
        _ code: Code, _ description: String, status: Int? = nil, headers: [HTTPHeader] = [], bodyPrefix: String? = nil,
        decodingFailure: DecodingFailure? = nil, limit: Int? = nil
    ) {
        self.code = code
        self.description = description
        self.status = status
        self.headers = headers
        self.bodyPrefix = bodyPrefix
        self.decodingFailure = decodingFailure
        self.limit = limit
    }

    /// Whether two errors are of the same kind: codes only.
    public static func == (lhs: APIError, rhs: APIError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Any error of that kind, for `==`, `catch` patterns and `#expect(throws:)`.
    public static let invalidURL = APIError(.invalidURL, "invalid URL")
    /// Any ``Code/credential`` error.
    public static let credential = APIError(.credential, "the credential cannot be read")
    /// Any ``Code/transport`` error.
    public static let transport = APIError(.transport, "no answer came")
    /// Any ``Code/timeout`` error.
    public static let timeout = APIError(.timeout, "no complete answer came in time")
    /// Any ``Code/bodyTooLarge`` error.
    public static let bodyTooLarge = APIError(.bodyTooLarge, "the body is larger than the limit")
    /// Any ``Code/status`` error.
    public static let status = APIError(.status, "the server answered with a status other than 2xx")
    /// Any ``Code/emptyBody`` error.
    public static let emptyBody = APIError(
        .emptyBody, "the server answered with an empty body where JSON was expected")
    /// Any ``Code/decoding`` error.
    public static let decoding = APIError(.decoding, "the body cannot be decoded")

    static func invalidURL(_ reason: String) -> APIError { APIError(.invalidURL, "invalid URL: \(reason)") }

    static func credential(_ reason: String) -> APIError {
        APIError(.credential, "the credential cannot be read: \(reason)")
    }

    static func transport(_ reason: String) -> APIError { APIError(.transport, reason) }

    static func timeout(_ reason: String) -> APIError { APIError(.timeout, reason) }

    static func bodyTooLarge(limit: Int) -> APIError {
        APIError(.bodyTooLarge, "the body is larger than the limit of \(ByteSize.format(limit))", limit: limit)
    }

    static func status(code: Int, headers: [HTTPHeader], bodyPrefix: String) -> APIError {
        APIError(
            .status,
            "the server answered \(code) \(HTTPStatusText.reason(code))"
                + (bodyPrefix.isEmpty ? "" : ": \(bodyPrefix)"),
            status: code, headers: headers, bodyPrefix: bodyPrefix)
    }

    static func decoding(_ failure: DecodingFailure) -> APIError {
        APIError(.decoding, "the body cannot be decoded: \(failure)", decodingFailure: failure)
    }

    /// The error for a transport's failure.
    init(_ error: FetchError, maxBody: Int) {
        // FetchError compares by code, so its static members match any error of their kind.
        switch error {
        case .invalidURL: self = .invalidURL(error.description)
        case .timeout: self = .timeout(error.description)
        case .bodyTooLarge: self = .bodyTooLarge(limit: maxBody)
        default: self = .transport(error.description)
        }
    }
}
