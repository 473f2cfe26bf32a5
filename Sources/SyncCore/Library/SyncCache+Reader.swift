public import SyncPersistence
import SyncSupport

/// A read session: several reads of one committed state, run where the store reads, for a program that serves what
/// the cache holds as stored (the read API is one) and turns it into its answer there too.
extension SyncCache {
    /// Reads of the stored data inside ``SyncCache/read(_:)``: each call reads one committed state, so a reader
    /// never sees half a sync.
    ///
    /// A reader lives only as long as the closure it is given to; it is not `Sendable`, like the connection behind
    /// it. Its errors are ``SyncError``s.
    ///
    /// ```swift
    /// let (instance, statuses) = try await cache.read { reader in
    ///     (try reader.instance(), try reader.statuses())
    /// }
    /// for status in statuses {
    ///     print(status.name, SyncCache.etag(instance: instance, version: status.version))
    /// }
    /// ```
    ///
    /// ## Topics
    /// - ``instance()``
    /// - ``statuses()``
    /// - ``records(from:_:countingAll:maxBytes:)``
    /// - ``record(from:key:)``
    /// - ``document(from:)``
    /// - ``changes(from:since:after:limit:maxBytes:)``
    /// - ``records(of:_:countingAll:maxBytes:)``
    /// - ``record(of:key:)``
    /// - ``document(of:)``
    /// - ``changes(of:since:after:limit:maxBytes:)``
    /// - ``drift(_:)``
    /// - ``runs(of:limit:)``
    public struct Reader {
        let base: any StorageReader
        /// The configuration the endpoints named by the reads are looked up in (the cache's, as the read began).
        let configuration: SyncConfiguration

        /// The store's instance id: part of every entity tag, so that a rebuilt database (a new instance) never
        /// matches the tags another one handed out.
        ///
        /// - Throws: ``SyncError/Code/readFailed`` when the store cannot be read.
        public func instance() throws(SyncError) -> String {
            try mapped { try base.instance() }
        }

        /// Every endpoint the store has run, by name: what each last run left (``SyncCache/statuses()``).
        ///
        /// - Throws: ``SyncError/Code/readFailed`` when the store cannot be read.
        public func statuses() throws(SyncError) -> [EndpointStatus] {
            try mapped { try base.states().map(EndpointStatus.init) }
        }

        /// The schema-drift journal of one endpoint, or of every endpoint when `endpoint` is nil, by endpoint, kind
        /// and path (``SyncCache/drift(_:)``, which also refuses an endpoint never synced).
        ///
        /// - Throws: ``SyncError/Code/readFailed`` when the store cannot be read.
        public func drift(_ endpoint: String? = nil) throws(SyncError) -> [SchemaDrift] {
            try mapped { try base.drift(endpoint: endpoint) }
        }

        /// The last `limit` runs of each of `endpoints` (at most 100 each), oldest first, grouped by endpoint in the
        /// order of `endpoints`; an endpoint without runs has none.
        ///
        /// - Throws: ``SyncError/Code/readFailed`` when the store cannot be read.
        public func runs(of endpoints: [String], limit: Int) throws(SyncError) -> [Run] {
            try mapped { try base.recentRuns(of: endpoints, limit: limit).map(Run.init) }
        }

        /// The records of a collection endpoint that a query selects, each as received, stopping once they hold
        /// `maxBytes` of JSON (at least one record is read): a page as the read API sends it.
        ///
        /// The endpoint is as the cache's configuration has it, else as its last sync stored it.
        ///
        /// ```swift
        /// let page = try await cache.read { reader in
        ///     try reader.records(from: "users", SyncCache.Query(limit: 50), countingAll: true)
        /// }
        /// print(page.json.count, "of", page.total ?? 0, page.etag)
        /// ```
        ///
        /// - Parameters:
        ///   - endpoint: The name of the collection endpoint to read.
        ///   - query: The filters, order, limit and offset that select the records.
        ///   - countingAll: Also count every record the filters match (``RecordList/total``).
        ///   - maxBytes: Stop once the records read hold this many bytes of JSON. The default is no limit.
        /// - Throws: ``SyncError/Code/unknownEndpoint``; ``SyncError/Code/badQuery`` for an unknown column, a value
        ///   that does not fit its column or a document endpoint; ``SyncError/Code/notSynced`` before the
        ///   endpoint's first sync.
        public func records(
            from endpoint: String, _ query: Query = Query(), countingAll: Bool = false, maxBytes: Int = .max
        ) throws(SyncError) -> RecordList {
            try records(of: try configured(endpoint), query, countingAll: countingAll, maxBytes: maxBytes)
        }

        /// One record of a collection endpoint by its key (one value per key column, as text); nil when there is
        /// none.
        ///
        /// - Throws: ``SyncError/Code/unknownEndpoint``; ``SyncError/Code/badQuery`` for a key of the wrong form or
        ///   a document endpoint.
        public func record(from endpoint: String, key: [String]) throws(SyncError) -> RecordJSON? {
            try record(of: try configured(endpoint), key: key)
        }

        /// A document endpoint's body; nil before its first sync.
        ///
        /// - Throws: ``SyncError/Code/unknownEndpoint``; ``SyncError/Code/badQuery`` for a collection endpoint.
        public func document(from endpoint: String) throws(SyncError) -> Document? {
            try document(of: try configured(endpoint))
        }

        /// The records changed and the keys deleted after version `since`, at most `limit` of them and about
        /// `maxBytes` of JSON; when a part is capped, its ``ChangeList/next`` is the `after` of the next part.
        ///
        /// ```swift
        /// var since = version, after: SyncCache.FeedPosition? = nil
        /// repeat {
        ///     let part = try await cache.read { reader in
        ///         try reader.changes(from: "users", since: since, after: after, limit: 500)
        ///     }
        ///     apply(part.changed, part.deleted)
        ///     (since, after) = (part.version, part.next)
        /// } while after != nil
        /// ```
        ///
        /// - Throws: ``SyncError/Code/unknownEndpoint``; ``SyncError/Code/badQuery`` for a document endpoint;
        ///   ``SyncError/Code/notSynced`` before the endpoint's first sync.
        public func changes(
            from endpoint: String, since: Int64, after: FeedPosition? = nil, limit: Int? = nil, maxBytes: Int = .max
        ) throws(SyncError) -> ChangeList {
            try changes(of: try configured(endpoint), since: since, after: after, limit: limit, maxBytes: maxBytes)
        }

        /// The endpoint of that name, as the cache's configuration has it, else as its last sync stored it.
        private func configured(_ name: String) throws(SyncError) -> EndpointConfiguration {
            try mapped { try SyncCache.endpoint(name, base, configuration: configuration) }
        }

        // The reads below take the endpoint as the program that serves them holds it, compiled: the read API's,
        // which may read a replica opened without the configuration.

        /// The records a query selects (``records(from:_:countingAll:maxBytes:)``), of `endpoint` as given.
        public func records(
            of endpoint: Endpoint, _ query: Query, countingAll: Bool = false, maxBytes: Int = .max
        ) throws(SyncError) -> RecordList {
            try records(of: endpoint.plan, query, countingAll: countingAll, maxBytes: maxBytes)
        }

        /// One record by its key (``record(from:key:)``), of `endpoint` as given.
        public func record(of endpoint: Endpoint, key: [String]) throws(SyncError) -> RecordJSON? {
            try record(of: endpoint.plan, key: key)
        }

        /// A document endpoint's body (``document(from:)``), of `endpoint` as given.
        public func document(of endpoint: Endpoint) throws(SyncError) -> Document? {
            try document(of: endpoint.plan)
        }

        /// The changes after version `since` (``changes(from:since:after:limit:maxBytes:)``), of `endpoint` as given.
        public func changes(
            of endpoint: Endpoint, since: Int64, after: FeedPosition? = nil, limit: Int? = nil, maxBytes: Int = .max
        ) throws(SyncError) -> ChangeList {
            try changes(of: endpoint.plan, since: since, after: after, limit: limit, maxBytes: maxBytes)
        }

        /// The records a query selects, of a compiled plan.
        func records(
            of endpoint: EndpointConfiguration, _ query: Query, countingAll: Bool, maxBytes: Int
        ) throws(SyncError) -> RecordList {
            try mapped {
                RecordList(
                    base: try base.records(of: endpoint, query.base, countingAll: countingAll, maxBytes: maxBytes),
                    columns: endpoint.columns)
            }
        }

        /// One record by its key, of a compiled plan.
        func record(of endpoint: EndpointConfiguration, key: [String]) throws(SyncError) -> RecordJSON? {
            try mapped { try base.record(of: endpoint, key: key).map(RecordJSON.init) }
        }

        /// A document endpoint's body, of a compiled plan.
        func document(of endpoint: EndpointConfiguration) throws(SyncError) -> Document? {
            try mapped { try base.document(of: endpoint).map(Document.init) }
        }

        /// The changes after version `since`, of a compiled plan.
        func changes(
            of endpoint: EndpointConfiguration, since: Int64, after: FeedPosition?, limit: Int?, maxBytes: Int
        ) throws(SyncError) -> ChangeList {
            try mapped {
                ChangeList(
                    base: try base.changes(
                        of: endpoint, since: since, after: after?.base, limit: limit, maxBytes: maxBytes))
            }
        }

        private func mapped<T>(_ read: () throws -> T) throws(SyncError) -> T {
            do {
                return try read()
            } catch {
                throw SyncError(reading: error)
            }
        }
    }

    /// Runs `body` with a ``Reader`` of the stored data, where the store reads — for SQLite on its read threads, at
    /// a lower priority than syncs — so that turning what was read into an answer (JSON, a page) stays off the
    /// cooperative threads too.
    ///
    /// ```swift
    /// let drift = try await cache.read { reader in try reader.drift("users") }
    /// ```
    ///
    /// - Returns: What `body` returns.
    /// - Throws: ``SyncError/Code/busy`` when too many reads wait already; what `body` throws: the reader's
    ///   ``SyncError``s as they are, an error of another type as ``SyncError/Code/readFailed``.
    public func read<Result: Sendable>(
        _ body: @escaping @Sendable (Reader) throws -> Result
    ) async throws(SyncError) -> Result {
        do {
            let configuration = self.configuration
            return try await storage.read { reader in try body(Reader(base: reader, configuration: configuration)) }
        } catch {
            throw SyncError(reading: error)
        }
    }

    /// A number that moves whenever anything has committed to the store since it was last asked — a sync of this
    /// process or of another — so that what a program built from an earlier read can be kept while it holds still.
    /// Cheap (for SQLite, `data_version`: a shared-memory read): the read API asks on every request.
    ///
    /// - Throws: ``SyncError/Code/readFailed`` when the store cannot be asked.
    public func generation() throws(SyncError) -> Int64 {
        do {
            return try storage.generation()
        } catch {
            throw SyncError(reading: error)
        }
    }

    /// The entity tag of an endpoint's lists, change feed and document at `version` in the store of `instance`
    /// (``Reader/instance()``), quoted: `"<instance>.<version>"`, as syncd's CLI and read API give them. A tag moves
    /// exactly when the data it describes may have, and a rebuilt store never matches another's tags.
    public static func etag(instance: String, version: Int64) -> String {
        ReadTags(instance: instance).tag(version)
    }
}
