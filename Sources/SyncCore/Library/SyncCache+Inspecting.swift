public import SyncPersistence

/// What an operator's tools read of a cache besides its records: each endpoint's health, and read-only SQL — what
/// `syncd status` and `syncd sql` print, for any program.
extension SyncCache {
    /// One endpoint's health after its last run, as `syncd status` prints it and the read API's `/v1/endpoints`
    /// serves it. The times are RFC 3339 texts in UTC, as stored.
    public struct EndpointStatus: Sendable, Hashable {
        /// The endpoint's name.
        public var name: String
        /// `collection` or `document`.
        public var kind: String
        /// The records stored (a document: 1 once stored).
        public var recordCount: Int
        /// The version of its data: it moves with every sync that changed something, never backwards, and a
        /// version once handed out is never given to other data of the same database. With ``Reader/instance()``,
        /// it makes the entity tag of the endpoint's lists, change feed and document (``etag(instance:version:)``).
        public var version: Int64
        /// When a sync last changed the endpoint's data, nil before the first.
        public var changedAt: String?
        /// When a run last succeeded (RFC 3339), nil before the first.
        public var lastSuccessAt: String?
        /// When a run last started (RFC 3339).
        public var lastAttemptAt: String?
        /// The HTTP status of the last run, when it got an answer.
        public var lastStatus: Int?
        /// Failed runs since the last success.
        public var consecutiveFailures: Int
        /// Why the last run failed, in one sentence; nil after a success.
        public var lastError: String?
        /// The `syncd run` node that ran it last, where nodes share the store.
        public var lastNode: String?
        /// When the scheduler of a `syncd run` (or ``run(onSync:)``) polls it next; nil when none has scheduled it.
        public var nextDueAt: String?
        /// Why it is polled next then, in `syncd status`' words: `interval`, `max-age: fresh for 58m` (an endpoint
        /// its upstream's freshness times, ``SyncEndpoint/Freshness/upstream``), `backoff after 3 failures`,
        /// `Retry-After`…; nil when no scheduler has scheduled it.
        public var scheduleReason: String?
        /// What the last run of an endpoint with a parent did per parent row: walked, not modified, empty, skipped,
        /// failed (1 when a parent's walk failed the run; the stored data then stayed as it was) and left for later
        /// runs. Nil for an endpoint without a parent, before its first run, and after a run that failed before
        /// or after its walks (its parent's rows unreadable, an empty snapshot refused).
        public var parents: SyncSummary.FanOut?

        init(_ state: EndpointState) {
            name = state.name
            kind = state.kind
            recordCount = state.recordCount
            version = state.version
            changedAt = state.changedAt
            lastSuccessAt = state.lastSuccessAt
            lastAttemptAt = state.lastAttemptAt
            lastStatus = state.lastStatus
            consecutiveFailures = state.consecutiveFailures
            lastError = state.lastError
            lastNode = state.lastNode
            nextDueAt = state.nextDueAt
            scheduleReason = state.scheduleReason
            parents = state.parents
        }
    }

    /// Every endpoint the store has run, by name: what each last run left.
    ///
    /// ```swift
    /// for status in try await cache.statuses() where status.consecutiveFailures > 0 {
    ///     print(status.name, status.lastError ?? "")
    /// }
    /// ```
    public func statuses() async throws(SyncError) -> [EndpointStatus] {
        try await readStored { reader in try reader.states().map(EndpointStatus.init) }
    }

    /// One value SQL returned.
    public enum SQLValue: Sendable, Hashable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        /// SQLite's BLOB, PostgreSQL's `bytea`.
        case blob([UInt8])

        /// The value as text, as the sqlite3 shell prints it; nil for NULL.
        public var text: String? { cell.textRepresentation }

        /// The value as a JSON literal: `null` for NULL and a real that is not finite, a blob as a string.
        public var json: String {
            switch cell {
            case .value(let value): value.jsonLiteral
            case .blob(let bytes): ColumnValue.text(String(decoding: bytes, as: UTF8.self)).jsonLiteral
            }
        }

        /// The store's form of the value.
        var cell: SQLCell {
            switch self {
            case .null: .null
            case .integer(let integer): .integer(integer)
            case .real(let real): .real(real)
            case .text(let text): .text(text)
            case .blob(let bytes): .blob(bytes)
            }
        }

        init(_ cell: SQLCell) {
            switch cell {
            case .value(.null): self = .null
            case .value(.integer(let integer)): self = .integer(integer)
            case .value(.real(let real)): self = .real(real)
            case .value(.text(let text)): self = .text(text)
            case .blob(let bytes): self = .blob(bytes)
            }
        }

        /// A record column's value.
        package init(_ value: ColumnValue) {
            self.init(SQLCell.value(value))
        }
    }

    /// The rows one statement returned, with its columns' names.
    public struct SQLRows: Sendable, Hashable {
        public var columns: [String]
        public var rows: [[SQLValue]]

        public init(columns: [String], rows: [[SQLValue]]) {
            self.columns = columns
            self.rows = rows
        }
    }

    /// Runs SQL that only reads, in the store's dialect, one statement after another — on a read-only connection of
    /// its own (SQLite), or in one read-only transaction that is rolled back (PostgreSQL): the rows of each statement
    /// that returned any, in order. Record tables are named after their endpoints;
    /// syncd's own tables start with `syncd_`.
    ///
    /// ```swift
    /// let rows = try await cache.sql("SELECT city, count(*) FROM users GROUP BY city")
    /// ```
    ///
    /// - Throws: ``SyncError/Code/refused`` when a statement would write, change the connection or call a function
    ///   the store does not allow (nothing ran); ``SyncError/Code/readFailed`` when the SQL failed.
    public func sql(_ script: String) async throws(SyncError) -> [SQLRows] {
        if let refusal = store.scriptRefusal(script) { throw SyncError(refusal) }
        do {
            return try await storage.runScript(script).map { result in
                SQLRows(columns: result.columns, rows: result.rows.map { $0.map(SQLValue.init) })
            }
        } catch let error as SQLScriptError {
            throw SyncError(error)
        } catch let error as StoreError {
            throw SyncError(error)
        } catch {
            throw .readFailed("\(error)")
        }
    }
}

extension SyncError {
    init(_ error: SQLScriptError) {
        switch error {
        case .refused(let sentence): self.init(.refused, sentence)
        case .failed(let sentence): self = .readFailed(sentence)
        }
    }
}
