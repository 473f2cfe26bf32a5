/// One numbered migration of syncd's own tables (migrations/NNNN_name.sql, or migrations/postgres/ for
/// PostgreSQL), whatever the store: its version, its name, its SQL and the checksum a database records with it.
/// SQLite's ``Migrator`` applies them; SyncPostgres' migrator applies PostgreSQL's.
package struct SchemaMigration: Sendable, Hashable {
    package var version: Int
    package var name: String
    package var sql: String
    /// What a database records with the migration, to refuse one edited after it shipped.
    package var checksum: String { Checksum.fnv1a64Hex(Array(sql.utf8)) }

    package init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// The version as migrations/ names it: 0001.
    var versionText: String {
        let digits = "\(version)"
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
