import Testing

@testable import SyncCore
@testable import SyncPostgres

/// The reading of the expressions PostgreSQL's `EXPLAIN (VERBOSE)` deparses, and what `syncd sql`'s guard allows of
/// them. The texts are as PostgreSQL 15 wrote them.
@Suite("PostgresPlanGuard: the functions of a plan that syncd sql lets run")
struct PostgresPlanGuardTests {
    func calls(_ text: String) -> [String] {
        PostgresPlanExpression(text).calls.map(\.description)
    }

    @Test("calls are the names before (, qualified and unquoted as the server wrote them; strings hold none")
    func calls() {
        #expect(calls("pg_read_file('/etc/passwd'::text)") == ["pg_read_file"])
        #expect(
            calls(#"pg_catalog.upper('f(x)'::text), "Odd""Name"(1), public."lower"(5)"#) == [
                "pg_catalog.upper", #"Odd"Name"#, "public.lower",
            ])
        #expect(calls("'it''s lower(x)'::text || E'\\' upper(y)'") == [])
        #expect(PostgresPlanExpression(#""Lower"(x), lower(x)"#).calls.map(\.quoted) == [true, false])
    }

    @Test("a cast's type and its modifiers are no call; a ( holding more than digits after one is")
    func casts() {
        #expect(calls("((lower(name))::character varying(10))") == ["lower"])
        #expect(calls("((id)::numeric(10,2))::double precision") == [])
        #expect(
            calls("(now())::timestamp(3) with time zone, '1 day'::interval second(3), '{1}'::integer[]") == [
                "now"
            ])
        #expect(
            calls("CASE WHEN (x)::boolean THEN pg_terminate_backend(123) END") == [
                "when", "pg_terminate_backend",
            ])
        #expect(calls("(x)::\"MyType\"(f(1))") == ["MyType", "f"])
        #expect(calls("(x)::integer to(f(1))") == ["to", "f"])
    }

    @Test("keywords before ( are calls the guard allows, written plainly")
    func keywords() {
        let text = """
            CASE WHEN (id > 1) THEN COALESCE(name, 'x'::text) ELSE 'b'::text END, count(*) FILTER (WHERE (c.id > 1)), \
            percentile_cont('0.5'::double precision) WITHIN GROUP (ORDER BY ((c.id)::double precision)), \
            (id = ANY ('{1,2}'::integer[])), NOT (a), COLLATION FOR (users.name), row_number() OVER (?), \
            XMLTABLE(('/a'::text) PASSING (XMLPARSE(DOCUMENT '<a/>'::text STRIP WHITESPACE)) COLUMNS x integer PATH \
            ('@x'::text))
            """
        let guardian = PostgresPlanGuard(expressions: [text])
        #expect(guardian.refusal == nil, "\(guardian.calls)")
        #expect(
            PostgresPlanGuard(expressions: [#""coalesce"(1)"#]).refusal
                == "syncd sql refuses coalesce(): it is not among the built-in functions it allows")
    }

    @Test(
        "what the guard refuses: functions not on its list, those of another schema, foreign OPERATOR()s, unreadable text",
        arguments: [
            ("pg_read_file('/etc/passwd'::text)", "syncd sql refuses pg_read_file(): it is not among"),
            (
                "query_to_xml('select pg_read_file(''/etc/passwd'')'::text, true, true, ''::text)",
                "syncd sql refuses query_to_xml(): it is not among"
            ),
            ("set_config('role'::text, 'postgres'::text, true)", "syncd sql refuses set_config():"),
            ("public.lower(5)", "syncd sql refuses public.lower():"),
            ("f2('x'::text)", "syncd sql refuses f2():"),
            ("(1 OPERATOR(public.###) 2)", "syncd sql refuses the operator ###: it is defined outside pg_catalog"),
            ("lower('x", "syncd sql refuses the statement: the server's plan of it could not be read"),
        ])
    func refused(expression: String, message: String) {
        let refusal = PostgresPlanGuard(expressions: ["lower(name)", expression]).refusal
        #expect(refusal?.hasPrefix(message) == true, "\(refusal ?? "nil")")
    }

    @Test("the names the server is asked about: allowed functions (keywords aside) and every operator")
    func namesToVerify() {
        let guardian = PostgresPlanGuard(expressions: ["(lower(name) || COALESCE(upper(x), ''::text))", "(a = b)"])
        #expect(guardian.namesToVerify.functions == ["lower", "upper"])
        #expect(guardian.namesToVerify.operators == ["=", "||"])
    }

    @Test("U&\"…\" names are read as the server decodes them, UESCAPE included")
    func unicodeNames() throws {
        let script = try PostgresScript(
            #"SELECT U&"pg\005fread\005ffile"('/etc/passwd'), u&"lo!005fimport" UESCAPE '!' (1), U&"\+00006Cower"(x)"#)
        #expect(script.statements.first?.calls == ["pg_read_file", "lo_import", "lower"])
        #expect(
            script.refusal == "syncd sql refuses pg_read_file(): it acts outside the read-only transaction")
        #expect(PostgresScript.decodeUnicodeEscapes(#"a\\b\D83D\DE00"#, escape: UInt8(ascii: "\\")) == #"a\b😀"#)
        #expect(PostgresScript.decodeUnicodeEscapes(#"a\00"#, escape: UInt8(ascii: "\\")) == nil)
    }

    @Test("calls spelled where the plan shows no expression: VALUES lists, LIMIT, OFFSET, window frames")
    func hiddenCalls() throws {
        let script = try PostgresScript(
            """
            SELECT sum(x) OVER (ORDER BY x ROWS BETWEEN h(1) PRECEDING AND CURRENT ROW), lower(y)
            FROM (VALUES (1, 'a'), (f(2), 'b')) AS v(x, y) WHERE g(x) ORDER BY x LIMIT "Q"(1) OFFSET r(2);
            SELECT a(1) FROM (SELECT b(1) FROM t LIMIT 1) AS s(x);
            SELECT * FROM ROWS FROM (generate_series(1, 2)) AS t(x)
            """)
        #expect(script.statements.map(\.hiddenCalls) == [["h", "values", "f", "Q", "r"], [], []])
        let guardian = PostgresPlanGuard(expressions: ["lower(y)"], spelledCalls: ["values", "numeric", "f"])
        #expect(guardian.refusal == "syncd sql refuses f(): it is not among the built-in functions it allows")
        #expect(guardian.namesToVerify.functions == ["f", "lower", "numeric", "values"])
    }

    @Test("the statement planned: the statement, or the one an EXPLAIN explains past its options; none for SHOW")
    func planned() throws {
        func planned(_ sql: String) throws -> String? { try PostgresScript(sql).statements.first?.planned }
        #expect(try planned("  TABLE users") == "TABLE users")
        #expect(try planned("explain /* c */ ANALYZE verbose SELECT 1") == "SELECT 1")
        #expect(
            try planned("EXPLAIN (ANALYZE, FORMAT 'json') WITH a AS (SELECT 1) TABLE a")
                == "WITH a AS (SELECT 1) TABLE a")
        #expect(try planned("EXPLAIN") == "")
        #expect(try planned("SHOW search_path") == nil)
    }
}
