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
        var known: Set<String> = []
        for row in try session.query("SELECT kind, path FROM syncd_drift WHERE endpoint = $1", [.text(name)]).rows {
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
        // An endpoint's first journaled run sets the baseline (the fields its configuration leaves out): the journal
        // holds it, and the log says only what changes after.
        guard !stored.isEmpty || !known.isEmpty else { return [] }
        return drift.observations.filter { !known.contains($0.kind.rawValue + " " + $0.path) }
    }
}
