package import SyncSQLite

extension Migrator {
    /// The migrations embedded in this binary (migrations/*.sql, by the EmbedMigrations plugin).
    package static let embedded = Migrator(
        migrations: EmbeddedMigrations.all.map { Migration(version: $0.version, name: $0.name, sql: $0.sql) }
    )
}
