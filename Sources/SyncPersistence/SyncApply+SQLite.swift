package import NIOCore
package import SyncIngest
package import SyncSQLite

/// ``SyncApply`` in an SQLite database: each call one IMMEDIATE transaction on `database`, through ``SQLiteWriter``.
extension SyncApply {
    /// Applies a 200 with records (``applyCollection(_:facts:in:)``).
    package func applyCollection(_ decoded: DecodedBody, facts: RunFacts, database: Database) throws -> SyncSummary {
        try inTransaction(database) { try applyCollection(decoded, facts: facts, in: &$0) }
    }

    /// Applies a child endpoint's run (``applyFanOut(_:facts:in:)``).
    package func applyFanOut(_ fanOut: FanOutBody, facts: RunFacts, database: Database) throws -> SyncSummary {
        try inTransaction(database) { try applyFanOut(fanOut, facts: facts, in: &$0) }
    }

    /// Applies a 304 (``applyNotModified(facts:in:)``).
    package func applyNotModified(facts: RunFacts, database: Database) throws -> SyncSummary {
        try inTransaction(database) { try applyNotModified(facts: facts, in: &$0) }
    }

    /// Applies a 200 of a document endpoint (``applyDocument(body:contentType:facts:in:)``).
    package func applyDocument(body: ByteBuffer, contentType: String?, facts: RunFacts, database: Database) throws
        -> SyncSummary
    {
        try inTransaction(database) { try applyDocument(body: body, contentType: contentType, facts: facts, in: &$0) }
    }

    /// Records a run that stored nothing (``recordFailure(_:outcome:facts:in:)``).
    package func recordFailure(
        _ error: String, outcome: SyncSummary.Outcome = .failed, facts: RunFacts, database: Database
    ) throws -> SyncSummary {
        try inTransaction(database) { try recordFailure(error, outcome: outcome, facts: facts, in: &$0) }
    }

    private func inTransaction<T>(_ database: Database, _ body: (inout SQLiteWriter) throws -> T) throws -> T {
        try database.transaction(.immediate) {
            var writer = SQLiteWriter(database: database, endpoint: endpoint)
            return try body(&writer)
        }
    }
}
