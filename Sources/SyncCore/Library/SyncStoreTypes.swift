public import Foundation

/// A value read from the cache, with what tells whether it is still current.
public struct Cached<Value> {
    /// The decoded value.
    public var value: Value
    /// The strong entity tag syncd's CLI and read API give the same data: `"<database>.<version>"`.
    public var etag: String
    /// The version at which this value last changed.
    public var version: Int64
    /// When it last changed in the cache.
    public var changedAt: Date?
}

extension Cached: Sendable where Value: Sendable {}

/// The records a query selected, decoded, with the tag of the whole answer.
public struct CachedRecords<Value> {
    /// The records that decoded, in the query's order.
    public var values: [Value]
    /// The records that did not decode as `Value`, each with what went wrong; they did not sink the others.
    public var failures: [RecordDecodingFailure]
    /// The tag of the endpoint's data: it changes when any record does. ``SyncStore/isModified(_:since:)`` takes it.
    public var etag: String
    /// The endpoint's version: ``SyncStore/changes(_:since:)`` takes it.
    public var version: Int64
    /// When the endpoint's data last changed.
    public var changedAt: Date?
}

extension CachedRecords: Sendable where Value: Sendable {}

/// A stored record that did not decode as the requested type.
public struct RecordDecodingFailure: Sendable, CustomStringConvertible {
    /// Its position among the records the query selected.
    public var index: Int
    /// The record's JSON as syncd stored it.
    public var raw: String
    /// What went wrong, in one sentence, with the coding path.
    public var reason: String

    init(index: Int, raw: String, error: any Error) {
        self.index = index
        self.raw = raw
        self.reason = Self.describe(error)
    }

    /// `record 3: city: expected Int, …`.
    public var description: String { "record \(index): \(reason)" }

    /// A `DecodingError` as a sentence: where (the coding path) and what.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty
                ? "the record"
                : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                    .trimmingPrefix(".").description
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(type), \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type), found null or nothing"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// A condition on a configured column, as the read API's PostgREST filters say it.
public struct RecordFilter: Sendable, Hashable {
    let filter: RecordQuery.Filter

    /// `column = value` (the value is converted to the column's type).
    public static func equal(_ column: String, _ value: String) -> RecordFilter {
        RecordFilter(filter: .init(column: column, op: .eq, values: [value]))
    }

    /// `column <> value`.
    public static func notEqual(_ column: String, _ value: String) -> RecordFilter {
        RecordFilter(filter: .init(column: column, op: .neq, values: [value]))
    }

    /// `column > value`.
    public static func greaterThan(_ column: String, _ value: String) -> RecordFilter {
        RecordFilter(filter: .init(column: column, op: .gt, values: [value]))
    }

    /// `column < value`.
    public static func lessThan(_ column: String, _ value: String) -> RecordFilter {
        RecordFilter(filter: .init(column: column, op: .lt, values: [value]))
    }

    /// The column's value is one of `values`.
    public static func oneOf(_ column: String, _ values: [String]) -> RecordFilter {
        RecordFilter(filter: .init(column: column, op: .in, values: values))
    }

    /// PostgREST's `like`: `*` matches any run of characters; case-sensitive.
    public static func like(_ column: String, _ pattern: String) -> RecordFilter {
        RecordFilter(filter: .init(column: column, op: .like, values: [pattern]))
    }

    /// The column is NULL.
    public static func isNull(_ column: String) -> RecordFilter {
        RecordFilter(filter: .init(column: column, op: .is, values: ["null"]))
    }
}

/// A sort on a configured column.
public struct RecordOrder: Sendable, Hashable {
    let order: RecordQuery.Order

    /// Smallest first (NULLs first).
    public static func ascending(_ column: String) -> RecordOrder { RecordOrder(order: .init(column: column)) }
    /// Largest first (NULLs last).
    public static func descending(_ column: String) -> RecordOrder {
        RecordOrder(order: .init(column: column, descending: true))
    }
}

/// Why a ``SyncStore``, ``Syncer`` or ``ResourceCache`` operation failed: a ``code`` and one sentence.
///
/// A struct with an opaque code, so that a new kind of failure breaks no embedder's `switch`; `==` compares codes
/// only, so the static members match any error of their kind:
///
/// ```swift
/// do { _ = try await store.records(User.self, from: "users") }
/// catch SyncStoreError.notSynced { /* nothing cached yet */ }
/// ```
public struct SyncStoreError: Error, Sendable, Hashable, CustomStringConvertible {
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
    public static func == (lhs: SyncStoreError, rhs: SyncStoreError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Any error of that kind, for `==`, `catch` patterns and `#expect(throws:)`.
    public static let cannotOpen = SyncStoreError(.cannotOpen, "the database cannot be opened")
    /// Any ``Code/unknownEndpoint`` error.
    public static let unknownEndpoint = SyncStoreError(.unknownEndpoint, "there is no such endpoint")
    /// Any ``Code/notSynced`` error.
    public static let notSynced = SyncStoreError(.notSynced, "the endpoint has not been synced yet")
    /// Any ``Code/badQuery`` error.
    public static let badQuery = SyncStoreError(.badQuery, "the query is not valid for the endpoint")
    /// Any ``Code/decoding`` error.
    public static let decoding = SyncStoreError(.decoding, "a stored value does not decode")
    /// Any ``Code/readFailed`` error.
    public static let readFailed = SyncStoreError(.readFailed, "the database cannot be read")

    static func cannotOpen(_ sentence: String) -> SyncStoreError { SyncStoreError(.cannotOpen, sentence) }

    static func unknownEndpoint(_ name: String) -> SyncStoreError {
        SyncStoreError(.unknownEndpoint, "there is no endpoint \"\(name)\"", endpoint: name)
    }

    static func decoding(_ sentence: String) -> SyncStoreError { SyncStoreError(.decoding, sentence) }

    static func readFailed(_ sentence: String) -> SyncStoreError { SyncStoreError(.readFailed, sentence) }

    init(_ error: StoreError) {
        if error == .unknownEndpoint, let name = error.endpoint {
            self = .unknownEndpoint(name)
        } else if error == .notSynced {
            self = SyncStoreError(.notSynced, error.description, endpoint: error.endpoint)
        } else if error == .unknownColumn || error == .badKey || error == .notCollection || error == .notDocument {
            self = SyncStoreError(.badQuery, error.description)
        } else {
            self = .readFailed(error.description)
        }
    }
}
