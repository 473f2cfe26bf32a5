package import SyncCore

/// The PostgreSQL schema's migrations, embedded from migrations/postgres/ by the EmbedMigrations plugin.
package enum PostgresMigrations {
    package static var all: [Migrator.Migration] {
        EmbeddedMigrations.all.map { Migrator.Migration(version: $0.version, name: $0.name, sql: $0.sql) }
    }
}
