import Foundation
import Testing

/// `syncd sql` calls only the functions on its list: each dangerous one is refused with one sentence and exit 2,
/// and the common scalar, aggregate, window, date and JSON functions still work.
@Suite("syncd sql: function allowlist")
struct SQLFunctionTests {
    @Test(
        "a function outside the list is refused with exit 2",
        arguments: [
            ("fts3_tokenizer", "SELECT hex(fts3_tokenizer('simple'))"),
            ("load_extension", "SELECT load_extension('/tmp/x.so')"),
            ("readfile", "SELECT readfile('/etc/passwd')"),
            ("writefile", "SELECT writefile('/tmp/syncd-pwned', 'x')"),
            ("edit", "SELECT edit('x', 'vi')"),
            ("fts5", "SELECT fts5(NULL)"),
            ("sqlite_log", "SELECT sqlite_log(1, 'x')"),
            ("rtreenode", "SELECT rtreenode(2, x'00')"),
            ("matchinfo", "SELECT matchinfo(name) FROM users"),
            ("fts3_tokenizer", "SELECT name FROM users WHERE FTS3_Tokenizer('porter') IS NOT NULL"),
        ])
    func refused(function: String, sql: String) async throws {
        try await CLITests.withSyncedWorkspace { workspace, _ in
            let result = try await workspace.run(["sql", sql])
            #expect(result.status == 2)
            #expect(
                result.standardError
                    == "syncd: syncd sql allows only the functions the guide lists (docs/explanation/security.md): \(function)() is not one\n"
            )
            #expect(result.standardOutput.isEmpty)
        }
    }

    @Test("the common scalar, aggregate, window, date, math and JSON functions run")
    func allowed() async throws {
        try await CLITests.withSyncedWorkspace { workspace, _ in
            let sql = """
                SELECT upper(substr(name, 1, 1)) || lower(trim(name)) LIKE '%a%' AS a, count(*) OVER () AS n,
                  row_number() OVER (ORDER BY id) AS r, coalesce(json_extract(_raw, '$.id'), 0) + abs(-1) AS j,
                  _raw ->> '$.name' = name AS same, date('2026-01-02', '+1 day') AS d, printf('%05.1f', round(lat, 1)) AS p,
                  (SELECT group_concat(key) FROM json_each(_raw) WHERE key = 'id') AS k, typeof(sqrt(4)) AS t
                FROM users WHERE name GLOB '*' ORDER BY id LIMIT 1
                """
            let result = try await workspace.run(["sql", sql, "--format", "csv"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.hasPrefix("a,n,r,j,same,d,p,k,t\r\n"))
            #expect(result.standardOutput.contains(",20,1,2,1,2026-01-03,"))
            #expect(result.standardOutput.hasSuffix(",id,real\r\n"))
        }
    }
}
