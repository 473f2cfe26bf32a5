package import SyncPersistence

/// Why a ``SyncCache`` or ``SyncConfiguration`` operation failed: a ``code`` and one sentence. The one error of
/// the library layer (``APIError`` is the typed fetches').
///
/// A struct with an opaque code, so that a new kind of failure breaks no embedder's `switch`; `==` compares codes
/// only, so the static members match any error of their kind:
///
/// ```swift
/// do { _ = try await cache.records(User.self, from: "users") }
/// catch SyncError.notSynced { /* nothing cached yet */ }
/// ```
public struct SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case invalidConfiguration = "invalid_configuration"
            case cannotOpen = "cannot_open"
            case readOnly = "read_only"
            case unknownEndpoint = "unknown_endpoint"
            case notSynced = "not_synced"
            case badQuery = "bad_query"
            case decoding
            case readFailed = "read_failed"
            case unavailable
            case alreadyRunning = "already_running"
            case refused
            case busy
        }

        private let base: Base

        /// A configuration (TOML or Swift) was refused; the sentence lists every problem, one per line.
        public static let invalidConfiguration = Code(base: .invalidConfiguration)
        /// The database file is missing, is not a database, or cannot be migrated.
        public static let cannotOpen = Code(base: .cannotOpen)
        /// A cache opened for reading only was asked to write: to sync or to fetch a resource.
        public static let readOnly = Code(base: .readOnly)
        /// No endpoint of that name has been synced into this database (or is configured, to sync it).
        public static let unknownEndpoint = Code(base: .unknownEndpoint)
        /// The endpoint exists but holds nothing yet.
        public static let notSynced = Code(base: .notSynced)
        /// A filter or order names a column the endpoint does not have, a value does not fit its column, or a fetch
        /// cannot be cached (only GET requests without a body are).
        public static let badQuery = Code(base: .badQuery)
        /// A stored value does not decode as the requested type.
        public static let decoding = Code(base: .decoding)
        /// The database could not be read or written.
        public static let readFailed = Code(base: .readFailed)
        /// A resource could not be fetched and nothing was cached to fall back on.
        public static let unavailable = Code(base: .unavailable)
        /// ``SyncCache/run(onSync:)`` was called while it already runs.
        public static let alreadyRunning = Code(base: .alreadyRunning)
        /// SQL given to ``SyncCache/sql(_:)`` would write, change the connection or call a function the store does
        /// not allow: nothing of it ran.
        public static let refused = Code(base: .refused)
        /// Too many reads wait for the database already: the read was refused at once rather than queued without
        /// end. Nothing is wrong with the data; try again in a moment (the read API answers 503 with
        /// `Retry-After: 1`).
        public static let busy = Code(base: .busy)

        /// A fixed name, such as `not_synced`: for metrics and logs.
        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// One sentence (one per line for ``Code/invalidConfiguration``).
    public let description: String
    /// The endpoint the failure is about, when it is about one.
    public let endpoint: String?
    /// Each problem of an ``Code/invalidConfiguration`` error, in line order: what ``description`` holds one a line.
    /// Split on these rather than on the description's lines, since a problem may quote a line break from the file.
    /// Empty for the other codes.
    public let problems: [String]

    init(_ code: Code, _ description: String, endpoint: String? = nil, problems: [String] = []) {
        self.code = code
        self.description = description
        self.endpoint = endpoint
        self.problems = problems
    }

    /// Whether two errors are of the same kind: codes only.
    public static func == (lhs: SyncError, rhs: SyncError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Any error of that kind, for `==`, `catch` patterns and `#expect(throws:)`.
    public static let invalidConfiguration = SyncError(.invalidConfiguration, "the configuration is not valid")
    /// Any ``Code/cannotOpen`` error.
    public static let cannotOpen = SyncError(.cannotOpen, "the database cannot be opened")
    /// Any ``Code/readOnly`` error.
    public static let readOnly = SyncError(.readOnly, "the cache was opened for reading only")
    /// Any ``Code/unknownEndpoint`` error.
    public static let unknownEndpoint = SyncError(.unknownEndpoint, "there is no such endpoint")
    /// Any ``Code/notSynced`` error.
    public static let notSynced = SyncError(.notSynced, "the endpoint has not been synced yet")
    /// Any ``Code/badQuery`` error.
    public static let badQuery = SyncError(.badQuery, "the query is not valid for the endpoint")
    /// Any ``Code/decoding`` error.
    public static let decoding = SyncError(.decoding, "a stored value does not decode")
    /// Any ``Code/readFailed`` error.
    public static let readFailed = SyncError(.readFailed, "the database cannot be read")
    /// Any ``Code/unavailable`` error.
    public static let unavailable = SyncError(.unavailable, "the resource cannot be fetched")
    /// Any ``Code/alreadyRunning`` error.
    public static let alreadyRunning = SyncError(.alreadyRunning, "the cache is already kept fresh")
    /// Any ``Code/refused`` error.
    public static let refused = SyncError(.refused, "the SQL was refused: it does not only read")
    /// Any ``Code/busy`` error.
    public static let busy = SyncError(.busy, "too many reads are waiting for the database; try again in a moment")

    static func invalidConfiguration(_ sentences: String) -> SyncError {
        SyncError(.invalidConfiguration, sentences, problems: sentences.split(separator: "\n").map(String.init))
    }
    static func invalidConfiguration(_ error: ConfigurationError) -> SyncError {
        SyncError(.invalidConfiguration, error.description, problems: error.problems.map(\.description))
    }

    static func cannotOpen(_ sentence: String) -> SyncError { SyncError(.cannotOpen, sentence) }

    static func readOnly(_ sentence: String) -> SyncError { SyncError(.readOnly, sentence) }

    static func unknownEndpoint(_ name: String) -> SyncError {
        SyncError(.unknownEndpoint, "there is no endpoint \"\(name)\"", endpoint: name)
    }

    static func badQuery(_ sentence: String) -> SyncError { SyncError(.badQuery, sentence) }

    static func decoding(_ sentence: String) -> SyncError { SyncError(.decoding, sentence) }

    static func readFailed(_ sentence: String) -> SyncError { SyncError(.readFailed, sentence) }

    static func unavailable(_ sentence: String) -> SyncError { SyncError(.unavailable, sentence) }

    static func alreadyRunning(_ sentence: String) -> SyncError { SyncError(.alreadyRunning, sentence) }

    /// What an error thrown by a read means to a program: a store's error by its kind; anything else (the
    /// database's own failure) as ``Code/readFailed``, its text in the sentence.
    init(reading error: any Error) {
        switch error {
        case let error as SyncError: self = error
        case let error as StoreError: self.init(error)
        default: self = .readFailed("\(error)")
        }
    }

    /// What a store error means to a program: its sentence, under the code a program matches. (The fuzz target of
    /// the read API's queries makes it from the store's own errors.)
    package init(_ error: StoreError) {
        if error == .busy {
            self = SyncError(.busy, error.description)
        } else if error == .unknownEndpoint, let name = error.endpoint {
            self = .unknownEndpoint(name)
        } else if error == .notSynced {
            self = SyncError(.notSynced, error.description, endpoint: error.endpoint)
        } else if error == .unknownColumn || error == .badKey || error == .notCollection || error == .notDocument {
            self = SyncError(.badQuery, error.description)
        } else {
            self = .readFailed(error.description)
        }
    }
}
