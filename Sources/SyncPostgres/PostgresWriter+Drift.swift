internal import PostgresNIO
internal import SyncCore

extension PostgresWriter {
    /// Adds a run's observations to the schema-drift journal, in the run's transaction, as ``SyncWriter`` does on
    /// SQLite.
    ///
    /// - Returns: the observations the journal did not hold yet, for the log to say once; none on the endpoint's first
    ///   journaled run, which sets the baseline.
    func journalDrift(_ tally: SchemaTally, now: String, session: PostgresSession) throws
        -> [DriftObservations.Observation]
    {
        var stored: [String: Int] = [:]
        for row in try session.query("SELECT path, types FROM syncd_path_types WHERE endpoint = $1", [.text(name)])
            .rows
        {
            stored[try row[0].decode(String.self)] = try row[1].decode(Int.self)
        }
        let drift = DriftObservations(tally, columns: endpoint.columns, storedTypes: stored)
        for (path, types) in drift.types where stored[path] != types {
            try session.query(
                """
                INSERT INTO syncd_path_types (endpoint, path, types) VALUES ($1, $2, $3)
                ON CONFLICT (endpoint, path) DO UPDATE SET types = EXCLUDED.types
                """, [.text(name), .text(path), .integer(Int64(types))])
        }
        // An endpoint's first journaled run sets the baseline (the fields its configuration leaves out): the journal
        // holds it, and the log says only what changes after.
        let isBaseline =
            try stored.isEmpty
            && session.query("SELECT 1 FROM syncd_drift WHERE endpoint = $1 LIMIT 1", [.text(name)]).rows.isEmpty
        var known: Set<String> = []
        let readBack = try session.query(
            """
            SELECT kind, path FROM syncd_drift WHERE endpoint = $1
                AND (kind <> 'new_field' OR path IN (SELECT jsonb_array_elements_text($2::jsonb)))
            """, [.text(name), .text(drift.readBackPathsJSON)])
        for row in readBack.rows {
            let (kindText, path) = (try row[0].decode(String.self), try row[1].decode(String.self))
            if let kind = SchemaDrift.Kind(rawValue: kindText), drift.isResolved(kind: kind, path: path) {
                try session.query(
                    "DELETE FROM syncd_drift WHERE endpoint = $1 AND kind = $2 AND path = $3",
                    [.text(name), .text(kindText), .text(path)])
            }
            known.insert(kindText + " " + path)
        }
        for observation in drift.observations {
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
        let added = drift.observations.filter { !known.contains($0.kind.rawValue + " " + $0.path) }
        // Past the bound, the new fields seen least recently go, as on SQLite; only a run that adds one can pass it.
        if added.contains(where: { $0.kind == .newField }) {
            try session.query(
                """
                DELETE FROM syncd_drift WHERE endpoint = $1 AND kind = 'new_field' AND path IN (
                    SELECT path FROM syncd_drift WHERE endpoint = $1 AND kind = 'new_field'
                    ORDER BY \(DriftObservations.newFieldOrder(collation: "\"C\"")) OFFSET $2)
                """, [.text(name), .integer(Int64(DriftObservations.maxNewFields))])
        }
        return isBaseline ? [] : added
    }
}
