public import SyncPersistence

/// A read of an endpoint's records as a value: what the read API parses a PostgREST query string into.
extension SyncCache {
    /// Which records a read selects and in what order: filters on configured columns, all of which must hold, an
    /// order, and a page (``limit`` and ``offset``).
    ///
    /// ```swift
    /// var query = SyncCache.Query(filters: [.equal("city", "Oslo")], order: [.descending("id")])
    /// query.limit = 10
    /// ```
    public struct Query: Sendable, Hashable {
        package var base: RecordQuery

        /// A query; by default every record, by primary key.
        public init(filters: [RecordFilter] = [], order: [RecordOrder] = [], limit: Int? = nil, offset: Int = 0) {
            base = RecordQuery(filters: filters, order: order, limit: limit, offset: offset)
        }

        /// Conditions on configured columns, all of which must hold. The default is none.
        public var filters: [RecordFilter] {
            get { base.filters }
            set { base.filters = newValue }
        }

        /// Configured columns to sort by; by primary key when empty (the default).
        public var order: [RecordOrder] {
            get { base.order }
            set { base.order = newValue }
        }

        /// The most records read; nil (the default) reads them all.
        public var limit: Int? {
            get { base.limit }
            set { base.limit = newValue }
        }

        /// How many of the selected records to skip first. The default is 0.
        public var offset: Int {
            get { base.offset }
            set { base.offset = newValue }
        }
    }
}
