package import FoundationEssentials
internal import SyncSQLite
import SyncSupport

/// One answer `SyncCache.fetch` keeps (in SQLite, a row of `syncd_resources`): the body with its validators and when it
/// was last validated.
package struct StoredResource: Sendable, Equatable {
    package var body: Data
    package var contentType: String?
    package var etag: String?
    package var lastModified: String?
    /// When the upstream last confirmed the body, in seconds since 1970.
    package var validatedAt: Double

    package init(body: Data, contentType: String?, etag: String?, lastModified: String?, validatedAt: Double) {
        self.body = body
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.validatedAt = validatedAt
    }

    static func load(_ url: String, _ database: Database) throws -> StoredResource? {
        guard
            let row = try database.rows(
                "SELECT body, content_type, etag, last_modified, validated_at FROM syncd_resources WHERE url = ?",
                [.text(url)]
            ).first
        else { return nil }
        let body: Data
        switch row["body"] {
        case .blob(let bytes): body = Data(bytes)
        case .text(let text): body = Data(text.utf8)
        default: body = Data()
        }
        return StoredResource(
            body: body, contentType: row.text("content_type"), etag: row.text("etag"),
            lastModified: row.text("last_modified"), validatedAt: row.text("validated_at").flatMap(Timestamp.parse) ?? 0
        )
    }

    static func touch(_ url: String, at time: Double, _ database: Database) throws {
        try database.execute(
            "UPDATE syncd_resources SET validated_at = ? WHERE url = ?", [.text(Timestamp.format(time)), .text(url)])
    }

    func save(_ url: String, _ database: Database) throws {
        try database.execute(
            """
            INSERT INTO syncd_resources (url, body, content_type, etag, last_modified, validated_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (url) DO UPDATE SET body = excluded.body, content_type = excluded.content_type,
                etag = excluded.etag, last_modified = excluded.last_modified, validated_at = excluded.validated_at
            """,
            [
                .text(url), .blob(Array(body)), contentType.map(SQLiteValue.text) ?? .null,
                etag.map(SQLiteValue.text) ?? .null, lastModified.map(SQLiteValue.text) ?? .null,
                .text(Timestamp.format(validatedAt)),
            ])
    }
}
