extension SyncWriter {
    /// Adds a run's observations to the schema-drift journal, in the run's transaction.
    ///
    /// - Returns: the observations the journal did not hold yet, for the log to say once; none on the endpoint's first
    ///   journaled run, which sets the baseline.
    func journalDrift(_ tally: SchemaTally, now: String, database: Database) throws -> [DriftObservations.Observation] {
        let name = SQLiteValue.text(endpoint.name.name)
        var stored: [String: Int] = [:]
        for row in try database.rows("SELECT path, types FROM syncd_path_types WHERE endpoint = ?", [name]) {
            if let path = row.text("path"), let types = row.integer("types") { stored[path] = Int(types) }
        }
        let drift = DriftObservations(tally, columns: endpoint.columns, storedTypes: stored)
        // Rows go in statements of up to 32: an endpoint's first sync writes one per column and per unmapped field, and
        // 10,000 endpoints starting at once made a statement each a tenth of their cold start.
        let changed = drift.types.filter { stored[$0.key] != $0.value }.sorted { $0.key < $1.key }
        for part in Self.parts(of: changed) {
            try database.execute(
                "INSERT OR REPLACE INTO syncd_path_types (endpoint, path, types) VALUES "
                    + Array(repeating: "(?, ?, ?)", count: part.count).joined(separator: ", "),
                part.flatMap { [name, .text($0.key), .integer(Int64($0.value))] })
        }
        // An endpoint's first journaled run sets the baseline (the fields its configuration leaves out): the journal
        // holds it, and the log says only what changes after.
        let isBaseline =
            try stored.isEmpty && database.rows("SELECT 1 FROM syncd_drift WHERE endpoint = ? LIMIT 1", [name]).isEmpty
        var known: Set<String> = []
        let readBack = try database.rows(
            """
            SELECT kind, path FROM syncd_drift WHERE endpoint = ?
                AND (kind <> 'new_field' OR path IN (SELECT value FROM json_each(?)))
            """, [name, .text(drift.readBackPathsJSON)])
        for row in readBack {
            guard let kindText = row.text("kind"), let path = row.text("path") else { continue }
            if let kind = SchemaDrift.Kind(rawValue: kindText), drift.isResolved(kind: kind, path: path) {
                try database.execute(
                    "DELETE FROM syncd_drift WHERE endpoint = ? AND kind = ? AND path = ?",
                    [name, .text(kindText), .text(path)])
            }
            known.insert(kindText + " " + path)
        }
        for part in Self.parts(of: drift.observations) {
            try database.execute(
                "INSERT INTO syncd_drift (endpoint, kind, path, detail, first_seen, last_seen, count, example) VALUES "
                    + Array(repeating: "(?, ?, ?, ?, ?, ?, 1, ?)", count: part.count).joined(separator: ", ")
                        + """
                         ON CONFLICT (endpoint, kind, path) DO UPDATE SET last_seen = excluded.last_seen,
                            count = count + 1, detail = excluded.detail, example = coalesce(example, excluded.example)
                        """,
                part.flatMap { observation -> [SQLiteValue] in
                    [
                        name, .text(observation.kind.rawValue), .text(observation.path),
                        observation.detail.map { .text($0) } ?? .null, .text(now), .text(now),
                        observation.example.map { .text($0) } ?? .null,
                    ]
                })
        }
        let added = drift.observations.filter { !known.contains($0.kind.rawValue + " " + $0.path) }
        // Past the bound, the new fields seen least recently go (this run's are never among them: it notes 256 at
        // most). Only a run that adds one can pass it.
        if added.contains(where: { $0.kind == .newField }) {
            try database.execute(
                """
                DELETE FROM syncd_drift WHERE endpoint = ?1 AND kind = 'new_field' AND path IN (
                    SELECT path FROM syncd_drift WHERE endpoint = ?1 AND kind = 'new_field'
                    ORDER BY \(DriftObservations.newFieldOrder(collation: "BINARY")) LIMIT -1 OFFSET ?2)
                """, [name, .integer(Int64(DriftObservations.maxNewFields))])
        }
        return isBaseline ? [] : added
    }

    /// `rows` in parts of at most 32, each written by one statement.
    private static func parts<Row>(of rows: [Row]) -> [ArraySlice<Row>] {
        stride(from: 0, to: rows.count, by: 32).map { rows[$0..<min($0 + 32, rows.count)] }
    }
}
