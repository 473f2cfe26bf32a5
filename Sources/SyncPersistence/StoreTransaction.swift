package import NIOCore
package import SyncDecoding
package import SyncIngest

/// What a store does inside the one transaction of a run, in its own SQL (or none): the narrow interface under
/// ``SyncApply``, which decides everything a run means and is written once for every store.
///
/// A transaction belongs to one run of one endpoint, and the store has opened it before ``SyncApply`` calls it:
/// whatever throws rolls it all back. The endpoint's row is read first (``openEndpoint(kind:)``, where a store may
/// make and lock it) and made sure of after the records (``storeEndpointRow(kind:)``, where a store may make it
/// instead), so that SQLite writes that page once, at the end; then every later write of the row finds it there.
///
/// ```swift
/// try database.transaction(.immediate) {
///     var transaction = SQLiteWriter(database: database, endpoint: run.endpoint)
///     return try SyncApply(run).applyCollection(body, facts: facts, in: &transaction)
/// }
/// ```
///
/// The records go through ``Records``, made once a run; nothing a record passes through is an existential or a
/// dynamic call once ``SyncApply`` is specialized for a store.
package protocol StoreTransaction {
    /// What stores the records of a run.
    associatedtype Records: StoreRecordWriter
    /// A stored row, as the store finds it again to delete it (SQLite: its rowid).
    associatedtype StoredRow

    // MARK: The endpoint's row

    /// Reads the endpoint's row at the start of the run; an endpoint without one reads as new (version 0, nothing
    /// stored). A store may make the row here, with this `kind` and the endpoint's URL, and lock it for the
    /// transaction.
    ///
    /// - Throws: ``StoreError/claimLost`` when the run's claim on the endpoint is another node's now; nothing is
    ///   written then.
    mutating func openEndpoint(kind: String) throws -> EndpointRow

    /// Makes sure the endpoint's row exists with this `kind` and the endpoint's URL (as URL redaction shows it);
    /// called once a run, after its records and before any other write of the row.
    mutating func storeEndpointRow(kind: String) throws

    /// Stores an incremental endpoint's cursor and the column it was read from.
    mutating func storeCursor(_ cursor: String, column: String) throws

    /// Writes a successful run's state into the endpoint's row.
    mutating func finishEndpoint(_ success: EndpointSuccess) throws

    /// Writes a failed run's state into the endpoint's row: its time, status and error, one more failure in a row
    /// (short of the counter's limit), and what it did per parent (a child endpoint's failed walk; nil clears the
    /// stored counts); the rest stays.
    mutating func failEndpoint(at time: String, httpStatus: Int?, error: String, parents: SyncSummary.FanOut?) throws

    // MARK: The table

    /// Creates the table, or brings an existing one to the configured columns.
    ///
    /// - Returns: Whether stored rows need re-reading from `_raw` (``refill(_:decoder:)``): columns were added or
    ///   retyped, or `storedSignature` (the last run's) differs from the shape's.
    /// - Throws: ``StoreError`` when the table exists with another primary key or key type, or is not syncd's.
    mutating func prepareTable(_ shape: TableShape, storedSignature: String?) throws -> Bool

    /// Re-reads every stored row's configured columns from its `_raw`, with the current column specs.
    mutating func refill(_ shape: TableShape, decoder: RecordDecoder) throws

    /// The rows the table holds.
    mutating func count(_ shape: TableShape) throws -> Int

    /// What stores this run's records, at `version` and time `now`.
    mutating func makeRecordWriter(_ shape: TableShape, version: Int64, now: String) throws -> Records

    /// The stored rows whose keys `seen` does not hold.
    mutating func unseenRows(_ shape: TableShape, seen: SeenKeys) throws -> [StoredRow]

    /// Deletes `rows`, leaving a tombstone at `version` for each.
    ///
    /// - Returns: The rows deleted.
    mutating func delete(_ rows: [StoredRow], of shape: TableShape, version: Int64, now: String) throws -> Int

    // MARK: A child endpoint's table (``SyncApply/applyFanOut(_:facts:in:)``)

    /// Every stored row that the run at `version` did not write (its `_version` is lower), with its key and its
    /// ``TableShape/parentColumn`` (nil when NULL): the rows a child endpoint's run may delete.
    mutating func parentedRows(_ shape: TableShape, before version: Int64) throws
        -> [(row: StoredRow, key: [ColumnValue], parent: String?)]

    /// Stores the endpoint's state for each parent of `states` (`syncd_children`), replacing what was there, and
    /// deletes the states of parents `parents` does not hold.
    mutating func replaceChildStates(_ states: [ChildState], keeping parents: Set<String>) throws

    // MARK: Documents

    /// Whether the stored document is `body`, byte for byte; false when none is stored.
    mutating func storedDocument(equals body: ByteBuffer) throws -> Bool

    /// Stores the document, replacing the stored one.
    mutating func storeDocument(_ body: ByteBuffer, contentType: String?, version: Int64, changedAt: String) throws

    // MARK: The schema-drift journal (``DriftObservations``)

    /// The JSON types kept for each path, by path.
    mutating func driftPathTypes() throws -> [String: Int]

    /// Keeps these JSON types for these paths, replacing what was kept.
    mutating func storeDriftPathTypes(_ types: [(path: String, types: Int)]) throws

    /// Whether the journal holds anything for the endpoint.
    mutating func hasDriftEntries() throws -> Bool

    /// The journal's entries other than new fields, and the new fields at the paths of `pathsJSON` (a JSON array
    /// of texts), as kind and path.
    mutating func driftEntries(readingBack pathsJSON: String) throws -> [(kind: String, path: String)]

    /// Removes one entry of the journal.
    mutating func deleteDriftEntry(kind: String, path: String) throws

    /// Notes the observations: a new entry seen first and last `now`, or one more sighting of a known one.
    mutating func noteDrift(_ observations: [DriftObservations.Observation], now: String) throws

    /// Keeps the `limit` new fields seen most recently (``DriftObservations/newFieldOrder(collation:)``).
    mutating func trimNewFields(to limit: Int) throws

    // MARK: Runs

    /// Records the run in syncd_runs with its problems in syncd_errors, and keeps the endpoint's last
    /// ``RunRecord/retainedRuns`` runs.
    ///
    /// - Returns: The run's id.
    mutating func insertRun(_ run: RunRecord) throws -> Int64
}

/// What stores a run's records in one store, made by ``StoreTransaction/makeRecordWriter(_:version:now:)``.
///
/// Records may wait in it for a statement of many (``flush()`` sends what waits); ``SyncApply`` flushes before a
/// deletion, and before a repeated key where the store cannot write one key twice in one statement.
package protocol StoreRecordWriter {
    /// Whether records waiting together may share a key. PostgreSQL's INSERT … ON CONFLICT cannot update one row
    /// twice in a statement: there a repeated key goes after what waits.
    static var writesRepeatedKeysTogether: Bool { get }

    /// Stores the records of `batch` at `positions`, in that order, or has them wait.
    ///
    /// - Returns: The rows written (inserted, or updated because `_raw` changed).
    mutating func store(_ positions: [Int], of batch: RecordPipeline.Batch) throws -> Int

    /// Stores what waits.
    ///
    /// - Returns: The rows written.
    mutating func flush() throws -> Int

    /// Deletes the row with this key (a record whose deleted flag is true), leaving a tombstone.
    ///
    /// - Returns: 1 when a row was deleted, 0 when there was none.
    mutating func deleteFlagged(key: [ColumnValue]) throws -> Int

    /// Drops the tombstones (of earlier versions) of the keys this run stored again: a key that comes back is no
    /// longer deleted. Called only when the run inserted rows.
    mutating func dropTombstonesOfReturnedKeys() throws
}
