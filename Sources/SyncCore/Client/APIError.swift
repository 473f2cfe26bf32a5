/// Why a fetch through ``APIClient`` returned no value; each case carries what a caller needs to react.
///
/// Its `description` is one sentence that names the failure and never a secret:
///
/// ```swift
/// do {
///     let user = try await client.fetch(endpoint, as: User.self)
/// } catch .status(let code, _, _) where code == 404 {
///     // not there
/// } catch {
///     print(error)  // the body cannot be decoded: address.geo.lat (real): found string "tall"
/// }
/// ```
///
/// ## Topics
///
/// - ``invalidURL(_:)``
/// - ``credential(_:)``
/// - ``transport(_:)``
/// - ``timeout(_:)``
/// - ``bodyTooLarge(limit:)``
/// - ``status(code:headers:bodyPrefix:)``
/// - ``emptyBody``
/// - ``decoding(_:)``
public enum APIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint's URL cannot be built; the text says which part is wrong.
    case invalidURL(String)
    /// The credential's secret cannot be read; the text names its source, never the secret.
    case credential(String)
    /// No answer came: the connection was refused or cut, TLS failed, or the answer was not HTTP.
    case transport(String)
    /// No complete answer came within the client's timeout.
    case timeout(String)
    /// The body was larger than the client's limit, in bytes.
    case bodyTooLarge(limit: Int)
    /// The server answered with a status other than 2xx; `bodyPrefix` is the start of its body as text.
    case status(code: Int, headers: [HTTPHeader], bodyPrefix: String)
    /// The server answered 2xx with no body where one was to be decoded.
    case emptyBody
    /// The body is not what the model expected: where, what was expected, and what was found.
    case decoding(DecodingFailure)

    /// How many bytes of a non-2xx body ``status(code:headers:bodyPrefix:)`` keeps.
    public static let bodyPrefixLength = 256

    /// The failure as one sentence, e.g. `the server answered 404 Not Found: {"error":"not found"}`.
    public var description: String {
        switch self {
        case .invalidURL(let reason): "invalid URL: \(reason)"
        case .credential(let reason): "the credential cannot be read: \(reason)"
        case .transport(let reason), .timeout(let reason): reason
        case .bodyTooLarge(let limit): "the body is larger than the limit of \(ByteCount.format(limit))"
        case .status(let code, _, let bodyPrefix):
            "the server answered \(code) \(HTTPStatusText.reason(code))" + (bodyPrefix.isEmpty ? "" : ": \(bodyPrefix)")
        case .emptyBody: "the server answered with an empty body where JSON was expected"
        case .decoding(let failure): "the body cannot be decoded: \(failure)"
        }
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
