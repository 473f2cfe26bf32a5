import Testing

@testable import SyncCore
@testable import SyncPostgres

@Suite("PostgresScript: statements of syncd sql on PostgreSQL")
struct PostgresScriptTests {
    func statements(_ sql: String) throws -> [PostgresScript.Command] {
        try PostgresScript(sql).statements
    }

    @Test("split at each ; outside strings, names, comments and dollar quotes; empty ones left out")
    func splits() throws {
        let script = try statements(
            """
            SELECT 'a;b', "c;d" FROM t; -- one; still a comment
            /* a /* nested; */ comment; */ SELECT $$x;y$$, $tag$ $$; $tag$, E'\\';', 'it''s;';
            ;  ; VALUES (1)
            """)
        #expect(script.map(\.firstWord) == ["select", "select", "values"])
        #expect(script[0].text == #"SELECT 'a;b', "c;d" FROM t"#)
        #expect(script[2].text == "VALUES (1)")
    }

    @Test("the first word is past comments and parentheses, lower-cased; a statement starting otherwise has none")
    func firstWords() throws {
        #expect(try statements("  (( Select 1))").map(\.firstWord) == ["select"])
        #expect(try statements("-- c\nINSERT INTO t VALUES (1)").map(\.firstWord) == ["insert"])
        #expect(try statements("'x'").map(\.firstWord) == [""])
        #expect(try statements("\"select\" FROM t").map(\.firstWord) == ["select"])
    }

    @Test("calls are the names before (, folded unless quoted, schema-qualified or spaced")
    func calls() throws {
        let script = try statements(
            #"SELECT pg_catalog . PG_READ_FILE ('x'), "Lo_Import"(1), count(*), a$b(2), 'f'(3) FROM t WHERE x IN (1)"#)
        #expect(script.first?.calls == ["pg_read_file", "Lo_Import", "count", "a$b", "in"])
    }

    @Test("what is refused: words that do not read, and functions that act outside the transaction")
    func refusals() throws {
        #expect(try statements("SELECT 1").first?.refusal == nil)
        #expect(try statements("EXPLAIN SELECT 1").first?.refusal == nil)
        #expect(
            try statements("commit").first?.refusal
                == #"syncd sql only reads: "commit" would write or change the connection"#)
        #expect(
            try statements("SELECT set_config('a.b', 'c', false)").first?.refusal
                == "syncd sql refuses set_config(): it acts outside the read-only transaction")
        #expect(try statements("SELECT pg_ls_dir('.')").first?.refusal != nil)
        #expect(try statements(#"SELECT "PG_READ_FILE"('x')"#).first?.refusal == nil)
    }

    @Test(
        "text that ends inside a string, a name, a comment or a dollar quote says which",
        arguments: [
            ("SELECT 'x", "a string"), ("SELECT E'\\'", "a string"), (#"SELECT "x"#, "a quoted name"),
            ("SELECT /* /* */", "a comment"), ("SELECT $a$ x $b$", "a dollar-quoted string"),
        ])
    func unterminated(sql: String, what: String) {
        #expect(throws: PostgresScript.Unterminated(what: what)) { try PostgresScript(sql) }
    }

    @Test("a parameter and a dollar inside a name start no dollar quote")
    func dollars() throws {
        #expect(try statements("SELECT $1; SELECT a$b$ FROM t").map(\.firstWord) == ["select", "select"])
    }
}
