package import SyncSQLite
import SyncSupport

/// Rewrites the URLs a database stored before syncd redacted them (``URLRedaction``), so that a password or key
/// written in an endpoint's `url` does not stay in `syncd_endpoints` once this version opens the file for writing.
/// Each run rewrites its endpoint's row too, with the endpoint's query credential taken into account.
/// `SyncCache.fetch` rows keyed by a URL that shows a secret are deleted: they are a cache, fetched again under a key
/// that hides it.
package enum StoredURLRedaction {
    /// Redacts every `syncd_endpoints.url` that still shows a secret (rows already redacted are not written) and
    /// deletes the `syncd_resources` rows whose key shows one.
    ///
    /// - Throws: ``SQLiteError`` when the table cannot be read or written.
    package static func apply(_ database: Database) throws(SQLiteError) {
        let rows = try database.rows("SELECT name, url FROM syncd_endpoints")
        for row in rows {
            guard let name = row.text("name"), let url = row.text("url") else { continue }
            let redacted = URLRedaction.redact(url)
            guard redacted != url else { continue }
            try database.execute(
                "UPDATE syncd_endpoints SET url = ? WHERE name = ?", [.text(redacted), .text(name)])
        }
        for row in try database.rows("SELECT url FROM syncd_resources") {
            guard let url = row.text("url"), URLRedaction.redact(url) != url else { continue }
            try database.execute("DELETE FROM syncd_resources WHERE url = ?", [.text(url)])
        }
    }
}
