package import SyncModel
package import SyncSQLite
import SyncSupport

/// An endpoint's schedule as `syncd_endpoints` keeps it, so that a restart of the scheduler resumes it.
package struct StoredSchedule: Sendable, Hashable {
    /// When the endpoint is next due, in seconds since 1970; `nil` when it never ran (due at once).
    package var nextDue: Double?
    /// The failures since the last success.
    package var consecutiveFailures: Int
    /// Why the endpoint is next due then, in `syncd status`' words (`interval`, `max-age: fresh for 58m`); nil
    /// before its first scheduled run.
    package var reason: String?

    /// Creates a stored state.
    ///
    /// - Parameters:
    ///   - nextDue: When the endpoint is next due, in seconds since 1970, if known.
    ///   - consecutiveFailures: The failures since the last success.
    ///   - reason: Why it is next due then.
    package init(nextDue: Double? = nil, consecutiveFailures: Int = 0, reason: String? = nil) {
        self.nextDue = nextDue
        self.consecutiveFailures = consecutiveFailures
        self.reason = reason
    }

    /// The stored next due times and failure counts, so that a restart resumes instead of stampeding.
    ///
    /// An endpoint whose stored column specs differ from `endpoints`' (columns added or retyped while the daemon was
    /// down, or marked by a migration) is due at once instead: its first run, even a 304, re-reads its rows from
    /// `_raw`, so reads and filters do not wait a whole interval for the new columns.
    package static func load(_ database: Database, endpoints: [EndpointConfiguration]) throws -> [String:
        StoredSchedule]
    {
        let signatures = Dictionary(
            endpoints.filter { !$0.isDocument }.map { ($0.name.name, RecordTable($0).columnsSignature) },
            uniquingKeysWith: { first, _ in first })
        var states: [String: StoredSchedule] = [:]
        for row in try database.rows(
            "SELECT name, next_due_at, consecutive_failures, columns, schedule_reason FROM syncd_endpoints")
        {
            guard let name = row.text("name") else { continue }
            let stale = row.text("columns").map { $0 != signatures[name] } ?? false
            states[name] = StoredSchedule(
                nextDue: stale ? nil : row.text("next_due_at").flatMap(Timestamp.parse),
                consecutiveFailures: Int(row.integer("consecutive_failures") ?? 0),
                reason: stale ? nil : row.text("schedule_reason"))
        }
        return states
    }

    /// Stores next due times (`nil`: due at once) and their reasons in one transaction.
    static func storeNextDue(_ rows: [NextDue], _ database: Database) throws {
        try database.transaction {
            // The connection's cached statement: a batch every few milliseconds would otherwise prepare it each time.
            for row in rows {
                try database.execute(
                    "UPDATE syncd_endpoints SET next_due_at = ?, schedule_reason = ? WHERE name = ?",
                    [
                        row.due.map { .text(Timestamp.format($0)) } ?? .null, row.reason.map { .text($0) } ?? .null,
                        .text(row.name),
                    ])
            }
        }
    }
}

/// An endpoint's next due time as the scheduler hands it to the storage: when (`nil`: at once) and why.
package struct NextDue: Sendable, Hashable {
    package var name: String
    package var due: Double?
    package var reason: String?

    package init(name: String, due: Double?, reason: String? = nil) {
        self.name = name
        self.due = due
        self.reason = reason
    }
}
