internal import SyncSQLite

/// The schema-drift journal's rows in SQLite (``SyncApply/journalDrift(_:now:in:)`` decides what they hold).
extension SQLiteWriter {
    func driftPathTypes() throws -> [String: Int] {
        var stored: [String: Int] = [:]
        for row in try database.rows("SELECT path, types FROM syncd_path_types WHERE endpoint = ?", [.text(name)]) {
            if let path = row.text("path"), let types = row.integer("types") { stored[path] = Int(types) }
        }
        return stored
    }

    /// Rows go in statements of up to 32: an endpoint's first sync writes one per column and per unmapped field, and
    /// 10,000 endpoints starting at once made a statement each a tenth of their cold start.
    func storeDriftPathTypes(_ types: [(path: String, types: Int)]) throws {
        for part in Self.parts(of: types) {
            try database.execute(
                "INSERT OR REPLACE INTO syncd_path_types (endpoint, path, types) VALUES "
                    + Array(repeating: "(?, ?, ?)", count: part.count).joined(separator: ", "),
                part.flatMap { [.text(name), .text($0.path), .integer(Int64($0.types))] })
        }
    }

    func hasDriftEntries() throws -> Bool {
        try !database.rows("SELECT 1 FROM syncd_drift WHERE endpoint = ? LIMIT 1", [.text(name)]).isEmpty
    }

    func driftEntries(readingBack pathsJSON: String) throws -> [(kind: String, path: String)] {
        try database.rows(
            """
            SELECT kind, path FROM syncd_drift WHERE endpoint = ?
                AND (kind <> 'new_field' OR path IN (SELECT value FROM json_each(?)))
            """, [.text(name), .text(pathsJSON)]
        ).compactMap { row in
            guard let kind = row.text("kind"), let path = row.text("path") else { return nil }
            return (kind, path)
        }
    }

    func deleteDriftEntry(kind: String, path: String) throws {
        try database.execute(
            "DELETE FROM syncd_drift WHERE endpoint = ? AND kind = ? AND path = ?",
            [.text(name), .text(kind), .text(path)])
    }

    func noteDrift(_ observations: [DriftObservations.Observation], now: String) throws {
        for part in Self.parts(of: observations) {
            try database.execute(
                "INSERT INTO syncd_drift (endpoint, kind, path, detail, first_seen, last_seen, count, example) VALUES "
                    + Array(repeating: "(?, ?, ?, ?, ?, ?, 1, ?)", count: part.count).joined(separator: ", ")
                        + """
                         ON CONFLICT (endpoint, kind, path) DO UPDATE SET last_seen = excluded.last_seen,
                            count = count + 1, detail = excluded.detail, example = coalesce(example, excluded.example)
                        """,
                part.flatMap { observation -> [SQLiteValue] in
                    [
                        .text(name), .text(observation.kind.rawValue), .text(observation.path),
                        observation.detail.map { .text($0) } ?? .null, .text(now), .text(now),
                        observation.example.map { .text($0) } ?? .null,
                    ]
                })
        }
    }

    func trimNewFields(to limit: Int) throws {
        try database.execute(
            """
            DELETE FROM syncd_drift WHERE endpoint = ?1 AND kind = 'new_field' AND path IN (
                SELECT path FROM syncd_drift WHERE endpoint = ?1 AND kind = 'new_field'
                ORDER BY \(DriftObservations.newFieldOrder(collation: "BINARY")) LIMIT -1 OFFSET ?2)
            """, [.text(name), .integer(Int64(limit))])
    }

    /// `rows` in parts of at most 32, each written by one statement.
    private static func parts<Row>(of rows: [Row]) -> [ArraySlice<Row>] {
        stride(from: 0, to: rows.count, by: 32).map { rows[$0..<min($0 + 32, rows.count)] }
    }
}
