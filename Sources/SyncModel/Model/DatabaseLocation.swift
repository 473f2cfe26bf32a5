/// What a `database` setting names, told by its scheme alone: a PostgreSQL URL or the path of an SQLite file. SyncCore
/// reads no further into a URL; SyncPostgres' `PostgresLocation` does.
package enum DatabaseLocation {
    /// Whether `setting` names a PostgreSQL store (`postgresql://` or `postgres://`) rather than an SQLite file.
    package static func isPostgres(_ setting: String) -> Bool {
        setting.hasPrefix("postgresql://") || setting.hasPrefix("postgres://")
    }
}
