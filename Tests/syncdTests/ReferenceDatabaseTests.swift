import Foundation
import Testing

/// docs/reference/database.md lists exactly the tables and the underscore columns a synced SQLite database has: a
/// migration that adds a table, or a record table that gains a column of syncd's own, fails here until the page says so.
@Suite("ReferencePages: database.md lists the database's own tables and columns")
struct ReferenceDatabaseTests {
    /// The first cell of each row of the page's table under `heading`, unquoted from its backticks, with the rest of
    /// the row.
    static func rows(under heading: String) throws -> [(name: String, text: String)] {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/reference/database.md")
        let lines = try String(contentsOf: page, encoding: .utf8).components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: heading), "docs/reference/database.md has no \(heading)")
        var rows: [(name: String, text: String)] = []
        for line in lines[(start + 1)...] {
            if line.hasPrefix("## ") { break }
            guard line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = cells.first else { continue }
            rows.append((String(first.dropFirst().dropLast()), cells.dropFirst().joined(separator: " ")))
        }
        return rows
    }

    /// One column of a `syncd sql` query's CSV answer, header dropped.
    static func column(_ sql: String, in workspace: CLITests.Workspace) async throws -> Set<String> {
        let result = try await workspace.run(["sql", sql, "--format", "csv"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
        return Set(lines)
    }

    @Test("every syncd_ table of a synced database is on the page, and every table on the page is in it")
    func tables() async throws {
        let documented = try Self.rows(under: "## syncd's own tables")
        let onSQLite = Set(documented.filter { !$0.text.hasPrefix("PostgreSQL only") }.map(\.name))
        #expect(!onSQLite.isEmpty)
        try await CLITests.withSyncedWorkspace { workspace, _ in
            let tables = try await Self.column(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'syncd\\_%' ESCAPE '\\'",
                in: workspace)
            #expect(tables == onSQLite, "the page lists \(onSQLite.sorted()), the database has \(tables.sorted())")
        }
    }

    @Test("every column of syncd's own in a record table is on the page")
    func recordColumns() async throws {
        let documented = try Self.rows(under: "## A collection endpoint's table")
        let always = Set(documented.filter { !$0.text.contains("child endpoint's rows only") }.map(\.name))
        #expect(always.contains("_raw"))
        try await CLITests.withSyncedWorkspace { workspace, _ in
            let columns = try await Self.column(
                "SELECT name FROM pragma_table_info('users') WHERE name LIKE '\\_%' ESCAPE '\\'", in: workspace)
            #expect(columns == always, "the page lists \(always.sorted()), the users table has \(columns.sorted())")
        }
    }
}
