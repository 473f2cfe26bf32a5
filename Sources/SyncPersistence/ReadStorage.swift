package import SyncModel

/// Where the read API, the library's `SyncCache` and the CLI read the stored data: the one interface between a
/// reader and a database, beside ``SyncStorage`` for writes.
///
/// A read runs `body` where the storage reads — for SQLite, on its read threads, at a lower priority than syncs — so
/// that turning what was read into an answer (JSON, a table) stays off the cooperative threads too. Each call of the
/// ``StorageReader`` it is given reads one committed state: readers never see half a sync. ``SQLiteReadStorage`` is
/// syncd's implementation; `StorageConformanceTests` state what any implementation must do.
package protocol ReadStorage: Sendable {
    /// A number that moves whenever anything has committed since the previous call — a sync of this process or of
    /// another — so that what a reader built earlier can be kept while it does not move. Cheap: the read API asks on
    /// every request.
    func generation() throws -> Int64

    /// Runs `body` with a reader of the stored data.
    ///
    /// - Throws: ``StoreError`` with code `busy` when too many reads wait already; what `body` throws.
    func read<T: Sendable>(_ body: @escaping @Sendable (any StorageReader) throws -> T) async throws -> T

    /// Runs the statements of `syncd sql` in one read-only transaction, each statement's rows in order. The store
    /// reads the script in its own dialect and checks each statement first: nothing runs when one is refused.
    ///
    /// - Throws: ``SQLScriptError``.
    func runScript(_ sql: String) async throws -> [SQLResult]
}

/// Reads of the stored data, inside ``ReadStorage/read(_:)``.
package protocol StorageReader {
    /// The store's instance id, part of every entity tag (a new database gets a new one).
    func instance() throws -> String

    /// Every endpoint's state, by name order.
    func states() throws -> [EndpointState]

    /// One endpoint's state; nil before its first run.
    func state(of name: String) throws -> EndpointState?

    /// An endpoint as its last sync stored it (columns, key), so that a program reads a store without the
    /// configuration that filled it; nil when it was never synced.
    func storedEndpoint(named name: String) throws -> EndpointConfiguration?

    /// Why the stored data of a collection endpoint cannot take `endpoint`'s configuration without losing its
    /// records — another primary key, or a key column of another type; nil when it can (or nothing is stored).
    func incompatibility(with endpoint: EndpointConfiguration) throws -> StoreError?

    /// The columns still stored for a collection endpoint that its configuration no longer names (they are kept,
    /// and no longer filled).
    func unconfiguredColumns(of endpoint: EndpointConfiguration) throws -> [String]

    /// The records a query selects.
    ///
    /// - Parameters:
    ///   - countingAll: Also count every record the filters match (``RecordPage/total``).
    ///   - maxBytes: Stop once the records read hold this many bytes of JSON (at least one record is read).
    /// - Throws: ``StoreError`` for an unknown column, a value that does not fit its column, or an endpoint not
    ///   synced yet.
    func records(of endpoint: EndpointConfiguration, _ query: RecordQuery, countingAll: Bool, maxBytes: Int) throws
        -> RecordPage

    /// One record by its key (one value per key column, as text); nil when there is none.
    func record(of endpoint: EndpointConfiguration, key: [String]) throws -> StoredRecord?

    /// A document endpoint's body; nil before its first sync.
    func document(of endpoint: EndpointConfiguration) throws -> StoredDocument?

    /// The schema-drift journal of one endpoint, or of all when `endpoint` is nil, by endpoint, kind and path.
    func drift(endpoint: String?) throws -> [SchemaDrift]

    /// The last `limit` runs (at most ``RecentRun/readLimit``) of each of `endpoints`, oldest first, grouped by
    /// endpoint in the order of `endpoints`; an endpoint without runs has none. What the status page charts.
    func recentRuns(of endpoints: [String], limit: Int) throws -> [RecentRun]

    /// The records changed and the keys deleted after version `since`, whole or in capped parts (see
    /// ``ChangeBatch/next``).
    func changes(
        of endpoint: EndpointConfiguration, since: Int64, after: ChangePosition?, limit: Int?, maxBytes: Int
    ) throws -> ChangeBatch
}

extension StorageReader {
    package func records(of endpoint: EndpointConfiguration, _ query: RecordQuery) throws -> RecordPage {
        try records(of: endpoint, query, countingAll: false, maxBytes: .max)
    }

    package func changes(of endpoint: EndpointConfiguration, since: Int64) throws -> ChangeBatch {
        try changes(of: endpoint, since: since, after: nil, limit: nil, maxBytes: .max)
    }
}
