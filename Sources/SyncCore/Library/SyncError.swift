public import Foundation

/// Why a ``SyncStore``, ``Syncer`` or ``ResourceCache`` operation failed: a ``code`` and one sentence.
///
/// A struct with an opaque code, so that a new kind of failure breaks no embedder's `switch`; `==` compares codes
/// only, so the static members match any error of their kind:
///
/// ```swift
/// do { _ = try await store.records(User.self, from: "users") }
/// catch SyncError.notSynced { /* nothing cached yet */ }
/// ```
public struct SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case cannotOpen = "cannot_open"
            case unknownEndpoint = "unknown_endpoint"
            case notSynced = "not_synced"
            case badQuery = "bad_query"
            case decoding
            case readFailed = "read_failed"
        }

        private let base: Base

        /// The database file is missing, is not a database, or cannot be migrated.
        public static let cannotOpen = Code(base: .cannotOpen)
        /// No endpoint of that name has been synced into this database (or is configured, for a ``Syncer``).
        public static let unknownEndpoint = Code(base: .unknownEndpoint)
        /// The endpoint exists but holds nothing yet.
        public static let notSynced = Code(base: .notSynced)
        /// A filter or order names a column the endpoint does not have, or a value does not fit its column.
        public static let badQuery = Code(base: .badQuery)
        /// A stored value does not decode as the requested type.
        public static let decoding = Code(base: .decoding)
        /// SQLite could not read.
        public static let readFailed = Code(base: .readFailed)

        /// A fixed name, such as `not_synced`: for metrics and logs.
        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// One sentence.
    public let description: String
    /// The endpoint the failure is about, when it is about one.
    public let endpoint: String?

    private init(_ code: Code, _ description: String, endpoint: String? = nil) {
        self.code = code
        self.description = description
        self.endpoint = endpoint
    }

    /// Whether two errors are of the same kind: codes only.
    public static func == (lhs: SyncError, rhs: SyncError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Any error of that kind, for `==`, `catch` patterns and `#expect(throws:)`.
    public static let cannotOpen = SyncError(.cannotOpen, "the database cannot be opened")
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

    static func cannotOpen(_ sentence: String) -> SyncError { SyncError(.cannotOpen, sentence) }

    static func unknownEndpoint(_ name: String) -> SyncError {
        SyncError(.unknownEndpoint, "there is no endpoint \"\(name)\"", endpoint: name)
    }

    static func decoding(_ sentence: String) -> SyncError { SyncError(.decoding, sentence) }

    static func readFailed(_ sentence: String) -> SyncError { SyncError(.readFailed, sentence) }

    init(_ error: StoreError) {
        if error == .unknownEndpoint, let name = error.endpoint {
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
