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
    /// The tag of the endpoint's data: it changes when any record does. ``SyncCache/isModified(_:since:)`` takes it.
    public var etag: String
    /// The endpoint's version: ``SyncCache/changes(_:since:)`` takes it.
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
