internal import Foundation
package import NIOCore

/// ``SyncStorage`` in an SQLite file: every call is one transaction on the writer connection of a
/// ``DatabaseQueue`` (``SyncWriter`` writes the runs, ``StoredSchedule`` the schedule), so runs of several endpoints
/// take turns, and WAL readers on other connections see each run whole or not at all.
package struct SQLiteSyncStorage: SyncStorage {
    package let database: DatabaseQueue

    package init(database: DatabaseQueue) {
        self.database = database
    }

    /// The database's folder: the same disk, and a folder syncd may write.
    package var spoolDirectory: String {
        let directory = (database.path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    package func state(of endpoint: String) async throws -> EndpointState? {
        try await database.perform { database in try EndpointState.named(endpoint, database) }
    }

    package func applyCollection(
        _ body: DecodedBody, run: SyncRun, facts: @escaping @Sendable () -> RunFacts
    ) async throws -> SyncReport {
        try await database.perform { database in
            try SyncWriter(run).applyCollection(body, facts: facts(), database: database)
        }
    }

    package func applyNotModified(run: SyncRun, facts: @escaping @Sendable () -> RunFacts) async throws -> SyncReport {
        try await database.perform { database in
            try SyncWriter(run).applyNotModified(facts: facts(), database: database)
        }
    }

    package func applyDocument(
        _ body: ByteBuffer, contentType: String?, run: SyncRun, facts: @escaping @Sendable () -> RunFacts
    ) async throws -> SyncReport {
        try await database.perform { database in
            try SyncWriter(run).applyDocument(
                body: body, contentType: contentType, facts: facts(), database: database)
        }
    }

    package func recordFailure(
        _ message: String, outcome: RunOutcome, run: SyncRun, facts: RunFacts
    ) async throws -> SyncReport {
        try await database.performEvenIfCancelled { database in
            try SyncWriter(run).recordFailure(message, outcome: outcome, facts: facts, database: database)
        }
    }

    package func schedule(of endpoints: [EndpointConfiguration]) async throws -> [String: StoredSchedule] {
        try await database.perform { database in try StoredSchedule.load(database, endpoints: endpoints) }
    }

    package func storeNextDue(_ rows: [(name: String, nextDue: Double?)]) async throws {
        try await database.performEvenIfCancelled { database in try StoredSchedule.storeNextDue(rows, database) }
    }
}
