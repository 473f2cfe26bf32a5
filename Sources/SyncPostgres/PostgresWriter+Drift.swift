internal import PostgresNIO
internal import SyncCore

/// The schema-drift journal's rows in PostgreSQL (``SyncApply`` decides what they hold).
extension PostgresWriter {
    func driftPathTypes() throws -> [String: Int] {
        var stored: [String: Int] = [:]
        for row in try session.query("SELECT path, types FROM syncd_path_types WHERE endpoint = $1", [.text(name)])
            .rows
        {
            stored[try row[0].decode(String.self)] = try row[1].decode(Int.self)
        }
        return stored
    }

    func storeDriftPathTypes(_ types: [(path: String, types: Int)]) throws {
        for (path, types) in types {
            try session.query(
                """
                INSERT INTO syncd_path_types (endpoint, path, types) VALUES ($1, $2, $3)
                ON CONFLICT (endpoint, path) DO UPDATE SET types = EXCLUDED.types
                """, [.text(name), .text(path), .integer(Int64(types))])
        }
    }

    func hasDriftEntries() throws -> Bool {
        try !session.query("SELECT 1 FROM syncd_drift WHERE endpoint = $1 LIMIT 1", [.text(name)]).rows.isEmpty
    }

    func driftEntries(readingBack pathsJSON: String) throws -> [(kind: String, path: String)] {
        try session.query(
            """
            SELECT kind, path FROM syncd_drift WHERE endpoint = $1
                AND (kind <> 'new_field' OR path IN (SELECT jsonb_array_elements_text($2::jsonb)))
            """, [.text(name), .text(pathsJSON)]
        ).rows.map { (try $0[0].decode(String.self), try $0[1].decode(String.self)) }
    }

    func deleteDriftEntry(kind: String, path: String) throws {
        try session.query(
            "DELETE FROM syncd_drift WHERE endpoint = $1 AND kind = $2 AND path = $3",
            [.text(name), .text(kind), .text(path)])
    }

    func noteDrift(_ observations: [DriftObservations.Observation], now: String) throws {
        for observation in observations {
            try session.query(
                """
                INSERT INTO syncd_drift (endpoint, kind, path, detail, first_seen, last_seen, count, example)
                VALUES ($1, $2, $3, $4, $5, $5, 1, $6)
                ON CONFLICT (endpoint, kind, path) DO UPDATE SET last_seen = EXCLUDED.last_seen,
                    count = syncd_drift.count + 1, detail = EXCLUDED.detail,
                    example = coalesce(syncd_drift.example, EXCLUDED.example)
                """,
                [
                    .text(name), .text(observation.kind.rawValue), .text(observation.path),
                    observation.detail.map(PostgresValue.text) ?? .null, .text(now),
                    observation.example.map(PostgresValue.text) ?? .null,
                ])
        }
    }

    /// As on SQLite, in PostgreSQL's order of texts.
    func trimNewFields(to limit: Int) throws {
        try session.query(
            """
            DELETE FROM syncd_drift WHERE endpoint = $1 AND kind = 'new_field' AND path IN (
                SELECT path FROM syncd_drift WHERE endpoint = $1 AND kind = 'new_field'
                ORDER BY \(DriftObservations.newFieldOrder(collation: "\"C\"")) OFFSET $2)
            """, [.text(name), .integer(Int64(limit))])
    }
}
