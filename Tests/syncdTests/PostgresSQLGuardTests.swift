import Foundation
import SampleUpstream
import SyncTesting
import Testing

/// `syncd sql`'s guard on PostgreSQL judges what the server will run, not how it is spelled: each statement's plan
/// (`EXPLAIN (VERBOSE)`) may call only allowed built-in functions. The CLI connects as a superuser here, so that a
/// function the guard let through would really read the server's files.
@Suite("syncd sql on PostgreSQL: the guard on the server's plan", .enabled(if: PostgresTestCluster.isAvailable))
struct PostgresSQLGuardTests {
    /// A workspace synced from the demo upstream's 20 users, its database holding what an owner might have defined:
    /// a view and SQL and PL/pgSQL functions that read a file, an overload of a built-in's name, an operator.
    static func synced() async throws -> (CLITests.Workspace, LoopbackHTTPServer) {
        let cluster = try await PostgresTestCluster.shared()
        let database = try await cluster.makeDatabase()
        let upstream = DemoUpstream(userCount: 20)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let workspace = try CLITests.Workspace(
            toml: PostgresCLITests.toml(database: database, baseURL: server.baseURL))
        let sync = try await workspace.run(["sync"])
        #expect(sync.status == 0, "\(sync.standardError)")
        for definition in [
            "CREATE VIEW hidden AS SELECT id, pg_read_file('PG_VERSION') AS f FROM users",
            "CREATE FUNCTION reader(text) RETURNS text LANGUAGE plpgsql AS 'BEGIN RETURN pg_read_file($1); END'",
            "CREATE FUNCTION public.upper(integer) RETURNS text LANGUAGE plpgsql AS 'BEGIN RETURN pg_read_file(''PG_VERSION''); END'",
            "CREATE FUNCTION sneaky(integer, integer) RETURNS integer LANGUAGE plpgsql AS 'BEGIN RETURN 1; END'",
            "CREATE OPERATOR ### (LEFTARG = integer, RIGHTARG = integer, FUNCTION = sneaky)",
        ] {
            _ = try await cluster.query(database, definition)
        }
        return (workspace, server)
    }

    @Test(
        "a function reached by another spelling, a string run as a query, a view, a CTE or EXPLAIN is refused (exit 2)")
    func refused() async throws {
        let (workspace, server) = try await Self.synced()
        defer { workspace.remove() }
        let cases: [(String, String)] = [
            (#"SELECT U&"pg\005fread\005ffile"('PG_VERSION')"#, "syncd sql refuses pg_read_file()"),
            (#"SELECT "pg_read_file"('PG_VERSION')"#, "syncd sql refuses pg_read_file()"),
            (#"SELECT pg_catalog."pg_read_file"('PG_VERSION')"#, "syncd sql refuses pg_read_file()"),
            (
                "SELECT query_to_xml('select pg_read_file(''PG_VERSION'')', true, true, '')",
                "syncd sql refuses query_to_xml(): it is not among the built-in functions it allows"
            ),
            (
                #"SELECT U&"query\005fto\005fxml"('select 1', true, true, '')"#,
                "syncd sql refuses query_to_xml(): it is not among"
            ),
            (
                "SELECT cursor_to_xml('c', 1, true, true, '')", "syncd sql refuses cursor_to_xml(): it is not among"
            ),
            ("SELECT table_to_xml('users', true, true, '')", "syncd sql refuses table_to_xml(): it is not among"),
            ("SELECT * FROM hidden", "syncd sql refuses pg_read_file(): it is not among"),
            ("TABLE hidden", "syncd sql refuses pg_read_file(): it is not among"),
            ("SELECT reader('PG_VERSION')", "syncd sql refuses reader(): it is not among"),
            ("SELECT upper(1)", "syncd sql refuses upper(): the database defines a function of that name outside"),
            ("SELECT 1 ### 2", "syncd sql refuses the operator ###: the database defines one of that name outside"),
            (
                "WITH x AS (SELECT query_to_xml('select 1', true, true, '') AS q) SELECT q FROM x",
                "syncd sql refuses query_to_xml()"
            ),
            (
                "SELECT id FROM users WHERE EXISTS (SELECT 1 WHERE query_to_xml('select 1', true, true, '') IS NULL)",
                "syncd sql refuses query_to_xml()"
            ),
            // Where EXPLAIN shows no expression: VALUES lists, LIMIT and OFFSET, window frames.
            ("VALUES (query_to_xml('select 1', true, true, ''))", "syncd sql refuses query_to_xml()"),
            (
                "SELECT * FROM (VALUES (1), (length(query_to_xml('select 1', true, true, '')::text))) AS v(x)",
                "syncd sql refuses query_to_xml()"
            ),
            (
                "SELECT id FROM users LIMIT length(query_to_xml('select 1', true, true, '')::text)",
                "syncd sql refuses query_to_xml()"
            ),
            (
                "SELECT id FROM users OFFSET length(U&\"query\\005fto\\005fxml\"('select 1', true, true, '')::text)",
                "syncd sql refuses query_to_xml()"
            ),
            (
                """
                SELECT sum(id) OVER (ORDER BY id ROWS BETWEEN length(query_to_xml('select 1', true, true, '')::text)
                    PRECEDING AND CURRENT ROW) FROM users
                """, "syncd sql refuses query_to_xml()"
            ),
            ("VALUES (upper(1))", "syncd sql refuses upper(): the database defines a function of that name outside"),
            (
                "EXPLAIN (ANALYZE, VERBOSE) SELECT query_to_xml('select 1', true, true, '')",
                "syncd sql refuses query_to_xml()"
            ),
            (#"SELECT U&"set\005fconfig"('role', 'x', true)"#, "syncd sql refuses set_config()"),
            (#"SELECT pg_advisory_lock(1) FROM users WHERE id = 1"#, "syncd sql refuses pg_advisory_lock()"),
            (#"SELECT lo_get(1)"#, "syncd sql refuses lo_get()"),
            (#"SELECT 1; SELECT "pg_ls_dir"('.')"#, "syncd sql refuses pg_ls_dir()"),
        ]
        for (sql, message) in cases {
            let result = try await workspace.run(["sql", sql])
            #expect(result.status == 2, "\(sql): \(result.standardError)")
            #expect(result.standardError.hasPrefix("syncd: \(message)"), "\(sql): \(result.standardError)")
            #expect(result.standardOutput.isEmpty, "\(sql): nothing runs")
        }
        try await server.shutdown()
    }

    @Test("statements that only read and compute pass the guard: functions, casts, windows, JSON, subqueries, EXPLAIN")
    func allowed() async throws {
        let (workspace, server) = try await Self.synced()
        defer { workspace.remove() }
        let statements = [
            """
            SELECT lower(name), initcap(name), length(name)::numeric(10,2), coalesce(city, 'none'), now()::date,
                count(*) OVER (PARTITION BY name), row_number() OVER (ORDER BY id),
                CASE WHEN id > 1 THEN 'many' ELSE 'one' END, id::text || '-' || md5(name),
                _raw::jsonb->>'name', jsonb_typeof(_raw::jsonb), (_raw::jsonb #> '{address}') IS NULL, name LIKE 'a%', name ~ '^a',
                id = ANY (ARRAY[1, 2]), date_trunc('day', '2024-05-01 10:00'::timestamp(3) with time zone),
                extract(year FROM '2024-05-01'::date), substring(name FROM 1 FOR 2), trim(both ' ' FROM name),
                U&"lower"('X')
            FROM users WHERE id IN (SELECT id FROM users WHERE name IS NOT NULL) ORDER BY id LIMIT 3
            """,
            "SELECT count(*) FILTER (WHERE id > 5), string_agg(name, ',' ORDER BY id), max(id) FROM users",
            "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY id) FROM users",
            "WITH big AS (SELECT id FROM users WHERE id > 10) SELECT count(*) FROM big",
            "SELECT * FROM generate_series(1, 3) AS g, LATERAL (VALUES (g * 2)) AS v(x)",
            "TABLE users",
            "VALUES (1, 'a'), (2, 'b')",
            "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(x, y) ORDER BY x LIMIT 1 OFFSET 0",
            "VALUES (CAST(1 AS numeric(10,2)), lower('A'), ARRAY[1, 2], ROW(1, 2)) LIMIT (1 + 1)",
            "SELECT sum(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM users",
            "SELECT * FROM ROWS FROM (generate_series(1, 2), unnest(ARRAY['a'])) AS t(n, s) LIMIT 5",
            "EXPLAIN SELECT count(*) FROM users",
            "EXPLAIN ANALYZE SELECT count(*) FROM users",
            "SHOW search_path",
            "SELECT to_regclass('users') IS NOT NULL, current_setting('server_version') IS NOT NULL",
        ]
        for sql in statements {
            let result = try await workspace.run(["sql", sql, "--format", "csv"])
            #expect(result.status == 0, "\(sql): \(result.standardError)")
        }
        try await server.shutdown()
    }
}
