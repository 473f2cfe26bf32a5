internal import NIOCore
package import SyncCore

/// Why a read request fails, as the read API answers it: an `application/problem+json` body (RFC 9457) whose
/// `detail` is one sentence.
package enum ReadAPIError: Error, Sendable, Equatable {
    /// 400: a query parameter is malformed or names something that is not there.
    case badParameter(_ name: String, _ sentence: String)
    /// 404
    case notFound(_ sentence: String)
    /// 401: no token, or the wrong one. The sentence never repeats what was sent.
    case unauthorized
    /// 503: the database cannot be read, or too many reads wait for it. The answer says `Retry-After: 1`; `cause`,
    /// when there is one, is what went wrong inside (an SQLite message, a path): the daemon logs it, the answer does
    /// not carry it.
    case unavailable(_ sentence: String, cause: String? = nil)
    /// 405: a method other than GET and HEAD.
    case methodNotAllowed
    /// 403: a webhook whose signature is missing, malformed, stale or not the body's.
    case forbidden(_ sentence: String)
    /// 413: a webhook's body over the most read.
    case tooLarge(_ sentence: String)

    package var status: Int {
        switch self {
        case .badParameter: 400
        case .notFound: 404
        case .unauthorized: 401
        case .unavailable: 503
        case .methodNotAllowed: 405
        case .forbidden: 403
        case .tooLarge: 413
        }
    }

    var title: String {
        switch self {
        case .badParameter: "Bad Request"
        case .notFound: "Not Found"
        case .unauthorized: "Unauthorized"
        case .unavailable: "Service Unavailable"
        case .methodNotAllowed: "Method Not Allowed"
        case .forbidden: "Forbidden"
        case .tooLarge: "Content Too Large"
        }
    }

    var detail: String {
        switch self {
        case .badParameter(_, let sentence), .notFound(let sentence), .unavailable(let sentence, _),
            .forbidden(let sentence), .tooLarge(let sentence):
            sentence
        case .unauthorized: "This read API requires a bearer token: send Authorization: Bearer <token>."
        case .methodNotAllowed: "The read API is read-only: it answers GET and HEAD."
        }
    }

    /// A short machine-readable code.
    var code: String {
        switch self {
        case .badParameter: "bad_parameter"
        case .notFound: "not_found"
        case .unauthorized: "unauthorized"
        case .unavailable: "unavailable"
        case .methodNotAllowed: "method_not_allowed"
        case .forbidden: "forbidden"
        case .tooLarge: "too_large"
        }
    }

    /// The problem document: `type`, `title`, `status`, `detail`, and `parameter` for a bad parameter; `message`
    /// and `code` repeat the sentence and the kind where PostgREST clients look for them.
    var body: String {
        var fields = [
            ("type", SyncCache.SQLValue.text("about:blank").json),
            ("title", SyncCache.SQLValue.text(title).json),
            ("status", String(status)),
            ("detail", SyncCache.SQLValue.text(detail).json),
            ("message", SyncCache.SQLValue.text(detail).json),
            ("code", SyncCache.SQLValue.text(code).json),
        ]
        if case .badParameter(let name, _) = self { fields.append(("parameter", SyncCache.SQLValue.text(name).json)) }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n"
    }

    /// What a cache's error means to a reader; `parameter` names the query parameter a bad value came from. A
    /// failure of the database itself says only that it cannot be read (``databaseFailed(_:)``).
    package init(_ error: SyncError, parameter: String) {
        if error == .notSynced || error == .unknownEndpoint {
            self = .notFound(Self.sentence(error.description))
        } else if error == .badQuery {
            self = .badParameter(parameter, Self.sentence(error.description))
        } else if error == .busy {
            self = .unavailable(Self.sentence(error.description))
        } else {
            self = Self.databaseFailed(error)
        }
    }

    /// 404: a route of collections (records, one record, changes) asked of a document endpoint.
    static func notCollection(_ endpoint: String) -> ReadAPIError {
        .notFound("\"\(endpoint)\" is a document endpoint: it has no records.")
    }

    /// 404: the document route asked of a collection endpoint.
    static func notDocument(_ endpoint: String) -> ReadAPIError {
        .notFound("\"\(endpoint)\" is a collection endpoint: give the record's key.")
    }

    /// 400: `parameter` names a column the endpoint is not configured with.
    static func unknownColumn(_ column: String, parameter: String, endpoint: String, known: [String]) -> ReadAPIError {
        .badParameter(
            parameter,
            "\"\(column)\" is not a configured column of \"\(endpoint)\" (its columns: \(known.joined(separator: ", ")))."
        )
    }

    /// What a reader is told when the database failed underneath a read; the error itself goes to the log only.
    static func databaseFailed(_ error: any Error) -> ReadAPIError {
        .unavailable("The database cannot be read right now; the daemon's log says why.", cause: "\(error)")
    }

    /// A store error's clause as a sentence: capitalised, with a full stop.
    static func sentence(_ clause: String) -> String {
        guard let first = clause.first else { return clause }
        let text = first.uppercased() + clause.dropFirst()
        return text.hasSuffix(".") ? text : text + "."
    }
}
