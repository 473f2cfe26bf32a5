/// Applies migrations/NNNN_name.sql (embedded at build time) to a database, once each, in order.
///
/// Each migration runs in its own IMMEDIATE transaction together with the row that records it, with a
/// checksum of its SQL. A database that records a migration this binary does not know, or whose recorded
/// checksum differs from the embedded file, is refused: the former was written by a newer syncd, the
/// latter means a migration was edited after it shipped.
package struct Migrator: Sendable {
    /// A migration (the name this type gave it before ``SchemaMigration`` served every store).
    package typealias Migration = SchemaMigration

    package var migrations: [Migration]

    package init(migrations: [Migration]) {
        let versions = migrations.map(\.version)
        precondition(Set(versions).count == versions.count, "two migrations share a version")
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// The latest version this binary knows.
    package var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The versions already applied to `database`, checked against this binary's migrations.
    ///
    /// - Throws: ``SQLiteError`` (``SQLiteError/newerDatabase``, ``SQLiteError/editedMigration``) when the database is newer than the binary or a migration was edited.
    package func appliedVersions(_ database: Database) throws -> [Int] {
        guard try database.tableExists("syncd_migrations") else { return [] }
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        var applied: [Int] = []
        for row in try database.rows("SELECT version, name, checksum FROM syncd_migrations ORDER BY version") {
            guard let version = row.integer("version").map(Int.init) else { continue }
            guard let migration = known[version] else {
                throw SQLiteError.newerDatabase(path: database.path, version: version, latest: latestVersion)
            }
            if row.text("checksum") != migration.checksum {
                throw SQLiteError.edited(path: database.path, migration: migration)
            }
            applied.append(version)
        }
        return applied
    }

    /// Applies every migration the database lacks.
    ///
    /// - Returns: The migrations applied now, empty when the database was up to date.
    /// - Throws: ``SQLiteError``: ``SQLiteError/newerDatabase`` or ``SQLiteError/editedMigration``, or the failure of a migration (that migration is rolled back).
    @discardableResult
    package func migrate(_ database: Database) throws -> [Migration] {
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS syncd_migrations (
                version    INTEGER PRIMARY KEY NOT NULL,
                name       TEXT NOT NULL,
                checksum   TEXT NOT NULL,
                applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
            )
            """
        )
        let applied = Set(try appliedVersions(database))
        var done: [Migration] = []
        for migration in migrations where !applied.contains(migration.version) {
            try database.transaction(.immediate) {
                // Another process may have applied it between our check and our lock.
                let already = try database.scalar(
                    "SELECT 1 FROM syncd_migrations WHERE version = ?", [.integer(Int64(migration.version))])
                guard already == nil else { return }
                try database.execute(migration.sql)
                try database.execute(
                    "INSERT INTO syncd_migrations (version, name, checksum) VALUES (?, ?, ?)",
                    [.integer(Int64(migration.version)), .text(migration.name), .text(migration.checksum)]
                )
                done.append(migration)
            }
        }
        return done
    }
}
