internal import FoundationEssentials
internal import PostgresNIO
internal import SyncCore
package import SyncSQLite

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The PostgreSQL schema's migrations (migrations/postgres/, embedded by the EmbedMigrations plugin), and what applies
/// them to a database as SQLite's migrator does: each in its transaction, recorded in syncd_migrations with its
/// checksum; a database newer than this binary, or with an edited migration, is refused. Nodes that start together
/// migrate one at a time (a transaction-scoped advisory lock).
package struct PostgresMigrations {
    /// The migrations embedded in this binary.
    package static var all: [SchemaMigration] {
        EmbeddedMigrations.all.map { SchemaMigration(version: $0.version, name: $0.name, sql: $0.sql) }
    }

    var migrations: [SchemaMigration]

    init(_ migrations: [SchemaMigration] = Self.all) {
        self.migrations = migrations
    }

    /// The advisory lock key: "syncd" in ASCII.
    static let lockKey: Int64 = 0x73_79_6e_63_64

    /// Brings the database to this binary's version. A hot standby cannot be written: there the migrations are only
    /// checked, and a standby behind this binary (its primary not migrated yet, or not replayed) is refused.
    func migrate(_ session: PostgresSession) throws {
        if try session.scalar(Bool.self, "SELECT pg_is_in_recovery()") == true {
            try check(session)
            return
        }
        try session.transaction {
            try session.query("SELECT pg_advisory_xact_lock($1)", [.integer(Self.lockKey)])
            try session.query(
                """
                CREATE TABLE IF NOT EXISTS syncd_migrations (
                    version    INTEGER PRIMARY KEY NOT NULL,
                    name       TEXT NOT NULL,
                    checksum   TEXT NOT NULL,
                    applied_at TEXT NOT NULL
                        DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                )
                """)
            let applied = try self.applied(session)
            for migration in migrations where !applied.contains(migration.version) {
                // One statement at a time: PostgresNIO's extended protocol takes one per message.
                for statement in Self.statements(migration.sql) { try session.query(statement) }
                try session.query(
                    "INSERT INTO syncd_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                    [.integer(Int64(migration.version)), .text(migration.name), .text(migration.checksum)])
            }
        }
    }

    /// The versions applied to the database, each checked against this binary's.
    private func applied(_ session: PostgresSession) throws -> Set<Int> {
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        var applied: Set<Int> = []
        for row in try session.query("SELECT version, checksum FROM syncd_migrations").rows {
            let version = Int(try row[0].decode(Int32.self))
            guard let migration = known[version] else {
                throw PostgresStoreError(
                    "the database was written by a newer syncd (it has migration \(version), this binary knows up "
                        + "to \(migrations.last?.version ?? 0)); upgrade syncd")
            }
            guard try row[1].decode(String.self) == migration.checksum else {
                throw PostgresStoreError(
                    "migration \(migration.version) (\(migration.name)) applied to the database differs from this "
                        + "binary's: it was edited after it shipped")
            }
            applied.insert(version)
        }
        return applied
    }

    /// A standby's migrations, which its primary applies: all of this binary's must be there. A daemon that has
    /// just migrated its primary opens the standby next, before it may have replayed them: it is given
    /// ``standbyPatience`` to.
    private func check(_ session: PostgresSession) throws {
        let deadline = ContinuousClock.now + Self.standbyPatience
        while true {
            let exists = try session.scalar(Bool.self, "SELECT to_regclass('syncd_migrations') IS NOT NULL") ?? false
            let applied = exists ? try applied(session) : []
            guard let missing = migrations.first(where: { !applied.contains($0.version) }) else { return }
            guard ContinuousClock.now < deadline else {
                throw PostgresStoreError(
                    "the database is a standby without migration \(missing.version) (\(missing.name)) of this syncd: "
                        + "migrate its primary (syncd migrate) and let the standby replay it")
            }
            usleep(100_000)
        }
    }

    /// How long a standby is waited for to replay its primary's migrations.
    static let standbyPatience: Duration = .seconds(30)
}
