import Foundation
import SampleUpstream
import SyncTesting
import Testing

/// `syncd sql` on PostgreSQL: read-only SQL in a read-only transaction that is rolled back; what would write, change
/// the connection or act outside the transaction is refused (exit 2) and writes nothing.
@Suite("syncd sql on PostgreSQL", .enabled(if: PostgresTestCluster.isAvailable))
struct PostgresSQLCLITests {
    /// A workspace synced from the demo upstream's 20 users into a database of its own.
    static func synced() async throws -> (CLITests.Workspace, LoopbackHTTPServer) {
        let database = try await PostgresTestCluster.shared().makeDatabase()
        let upstream = DemoUpstream(userCount: 20)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let workspace = try CLITests.Workspace(
            toml: PostgresCLITests.toml(database: database, baseURL: server.baseURL))
        let sync = try await workspace.run(["sync"])
        #expect(sync.status == 0, "\(sync.standardError)")
        return (workspace, server)
    }

    @Test("rows of each statement print as on SQLite; each type reads as psql shows it")
    func reads() async throws {
        let (workspace, server) = try await Self.synced()
        defer { workspace.remove() }
        let csv = try await workspace.run([
            "sql", "SELECT id, name FROM users ORDER BY id LIMIT 2; SELECT 7 AS n", "--format", "csv",
        ])
        #expect(csv.status == 0, "\(csv.standardError)")
        let lines = csv.standardOutput.split(whereSeparator: \.isNewline)
        #expect(lines.first == "id,name")
        #expect(lines.count == 5, "\(lines)")
        #expect(lines.suffix(2) == ["n", "7"])
        let types = try await workspace.run([
            "sql",
            """
            SELECT 1::int8 AS i, 1.5::float8 AS f, true AS b, 'x'::text AS t, 12.50::numeric AS n, NULL::text AS z,
                ARRAY[1, 2] AS a, interval '1 day' AS iv, '{"k": [1]}'::jsonb AS j, '2024-05-01'::date AS d
            """, "--format", "json",
        ])
        #expect(types.status == 0, "\(types.standardError)")
        let rows = try JSONSerialization.jsonObject(with: Data(types.standardOutput.utf8)) as? [[String: Any]]
        let row = try #require(rows?.first)
        #expect(row["i"] as? Int == 1)
        #expect(row["f"] as? Double == 1.5)
        #expect(row["b"] as? String == "true")
        #expect(row["t"] as? String == "x")
        #expect(row["n"] as? String == "12.50")
        #expect(row["z"] is NSNull)
        #expect(row["a"] as? String == "{1,2}")
        #expect(row["iv"] as? String == "1 day")
        #expect(row["j"] as? String == #"{"k": [1]}"#)
        #expect(row["d"] as? String == "2024-05-01")
        let show = try await workspace.run(["sql", "SHOW transaction_read_only", "--format", "csv"])
        #expect(show.standardOutput.split(whereSeparator: \.isNewline) == ["transaction_read_only", "on"])
        try await server.shutdown()
    }

    @Test(
        "what would write, change the connection or act outside the transaction is refused with exit 2, writing nothing",
        arguments: [
            ("INSERT INTO users (id, _raw) VALUES (999, '{}')", "syncd sql only reads: \"INSERT INTO users"),
            ("SELECT 1; COMMIT; DELETE FROM users", "syncd sql only reads: \"COMMIT\""),
            ("SET default_transaction_read_only = off", "syncd sql only reads: \"SET"),
            (
                "WITH d AS (DELETE FROM users RETURNING 1) SELECT count(*) FROM d",
                "syncd sql only reads: cannot execute SELECT in a read-only transaction"
            ),
            ("SELECT * INTO copied FROM users", "syncd sql only reads: cannot execute SELECT INTO"),
            ("SELECT pg_read_file('/etc/passwd')", "syncd sql refuses pg_read_file()"),
            (
                "SELECT pg_catalog . \"set_config\" ('transaction_read_only', 'off', true)",
                "syncd sql refuses set_config()"
            ),
            ("/* a comment; */ select LO_IMPORT('/etc/passwd')", "syncd sql refuses lo_import()"),
        ])
    func refused(sql: String, message: String) async throws {
        let (workspace, server) = try await Self.synced()
        defer { workspace.remove() }
        let result = try await workspace.run(["sql", sql])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("syncd: \(message)"), "\(result.standardError)")
        let count = try await workspace.run([
            "sql", "SELECT count(*) AS n, to_regclass('copied') IS NULL AS none FROM users", "--format", "csv",
        ])
        #expect(count.standardOutput.split(whereSeparator: \.isNewline).last == "20,true")
        try await server.shutdown()
    }

    @Test("SQL that does not read to its end, or that the server refuses, fails with exit 1 and its reason")
    func failures() async throws {
        let (workspace, server) = try await Self.synced()
        defer { workspace.remove() }
        let open = try await workspace.run(["sql", "SELECT 'x"])
        #expect(open.status == 1)
        #expect(open.standardError == "syncd: the SQL failed: the SQL ends inside a string\n")
        let missing = try await workspace.run(["sql", "SELECT * FROM nope"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains(#"the SQL failed: relation "nope" does not exist"#))
        try await server.shutdown()
    }
}
