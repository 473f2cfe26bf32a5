public import FoundationEssentials

extension SyncCache {
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

    /// The records a query selected, decoded, with the tag of the whole answer.
    public struct Records<Value> {
        /// The records that decoded, in the query's order.
        public var values: [Value]
        /// The records that did not decode as `Value`, each with what went wrong, in the words of syncd's record
        /// problems (`users[id=8] > city (integer): found string "Oslo"`); they did not sink the others.
        public var failures: [DecodingFailure]
        /// The tag of the endpoint's data: it changes when any record does. ``SyncCache/isModified(_:since:)`` takes it.
        public var etag: String
        /// The endpoint's version: ``SyncCache/changes(_:since:)`` takes it.
        public var version: Int64
        /// When the endpoint's data last changed.
        public var changedAt: Date?
    }
}

extension SyncCache.Cached: Sendable where Value: Sendable {}
extension SyncCache.Records: Sendable where Value: Sendable {}
