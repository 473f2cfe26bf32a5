/// One migration file, embedded at build time by the EmbedMigrations plugin.
struct EmbeddedMigration: Sendable {
    var version: Int
    var name: String
    var sql: String
}
