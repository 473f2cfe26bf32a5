package import SyncSQLite

/// An endpoint's row of syncd_endpoints: its health and its version, for `syncd status` and the read API.
package struct EndpointState: Sendable, Hashable {
    package var name: String
    package var kind: String
    package var version: Int64
    package var recordCount: Int
    package var changedAt: String?
    package var lastAttemptAt: String?
    package var lastSuccessAt: String?
    package var lastStatus: Int?
    package var lastError: String?
    package var consecutiveFailures: Int
    package var etag: String?
    package var lastModified: String?
    /// When the scheduler polls next; `nil` when no daemon has scheduled it.
    package var nextDueAt: String?
    /// Why it polls next then (``StoredSchedule/reason``); `nil` when no daemon has scheduled it.
    package var scheduleReason: String?
    /// An incremental endpoint's highest cursor value applied so far, and the column it was read from.
    package var cursor: String?
    package var cursorColumn: String?
    /// The `syncd run` node that polled the endpoint last, where nodes share the database (PostgreSQL); nil on SQLite.
    package var lastNode: String?
    /// What the endpoint's last run did per parent, for an endpoint with a parent (``SyncSummary/FanOut``); nil
    /// for any other, and after a run that failed before or after its walks.
    package var parents: SyncSummary.FanOut?

    package init(
        name: String, kind: String, version: Int64, recordCount: Int, changedAt: String?, lastAttemptAt: String?,
        lastSuccessAt: String?, lastStatus: Int?, lastError: String?, consecutiveFailures: Int, etag: String?,
        lastModified: String?, nextDueAt: String?, cursor: String?, cursorColumn: String?,
        lastNode: String? = nil, parents: SyncSummary.FanOut? = nil
    ) {
        self.name = name
        self.kind = kind
        self.version = version
        self.recordCount = recordCount
        self.changedAt = changedAt
        self.lastAttemptAt = lastAttemptAt
        self.lastSuccessAt = lastSuccessAt
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.consecutiveFailures = consecutiveFailures
        self.etag = etag
        self.lastModified = lastModified
        self.nextDueAt = nextDueAt
        self.cursor = cursor
        self.cursorColumn = cursorColumn
        self.lastNode = lastNode
        self.parents = parents
    }

    private static let columns = """
        name, kind, version, record_count, changed_at, last_attempt_at, last_success_at, last_status,
        last_error, consecutive_failures, etag, last_modified, next_due_at, cursor, cursor_column,
        parents, schedule_reason
        """

    /// Every endpoint's state, by name.
    package static func all(_ database: Database) throws -> [EndpointState] {
        try database.rows("SELECT \(columns) FROM syncd_endpoints ORDER BY name").map(EndpointState.init(row:))
    }

    /// One endpoint's state, `nil` before its first sync.
    package static func named(_ name: String, _ database: Database) throws -> EndpointState? {
        try database.rows("SELECT \(columns) FROM syncd_endpoints WHERE name = ?", [.text(name)])
            .first.map(EndpointState.init(row:))
    }

    init(row: Row) {
        name = row.text("name") ?? ""
        kind = row.text("kind") ?? "collection"
        version = row.integer("version") ?? 0
        recordCount = Int(row.integer("record_count") ?? 0)
        changedAt = row.text("changed_at")
        lastAttemptAt = row.text("last_attempt_at")
        lastSuccessAt = row.text("last_success_at")
        lastStatus = row.integer("last_status").map(Int.init)
        lastError = row.text("last_error")
        consecutiveFailures = Int(row.integer("consecutive_failures") ?? 0)
        etag = row.text("etag")
        lastModified = row.text("last_modified")
        nextDueAt = row.text("next_due_at")
        scheduleReason = row.text("schedule_reason")
        cursor = row.text("cursor")
        cursorColumn = row.text("cursor_column")
        parents = SyncSummary.FanOut.stored(row.text("parents"))
    }
}
