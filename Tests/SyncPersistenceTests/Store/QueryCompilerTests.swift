import SyncTesting
import Testing

@testable import SyncCore

/// The one compiler of reads writes each dialect's SQL: what differs between SQLite and PostgreSQL is the dialect's
/// alone, and every value a reader wrote is bound, converted to its column's type.
@Suite("store: the query compiler and its dialects")
struct QueryCompilerTests {
    /// The differential tests' endpoint: `id` integer (the key), `name` and `city` text, `score` real, `active`
    /// boolean, `joined` timestamp.
    static func endpoint() throws -> EndpointConfiguration {
        let configuration = try SyncConfiguration.parse(ReadDifferentialFixture.toml, sourcePath: "syncd.toml")
        return try #require(configuration.plan(named: "people"))
    }

    @Test("a page and its count, in each dialect")
    func page() throws {
        let query = RecordQuery(
            filters: [.equal("name", "Ann")], order: [RecordOrder(column: "name", descending: true)], limit: 10,
            offset: 5)
        let sqlite = try QueryCompiler(.sqlite, endpoint: try Self.endpoint()).records(query)
        #expect(
            sqlite.page.sql
                == #"SELECT "id", "name", "city", "score", "active", "joined", "_raw" FROM "people" WHERE "name" = ?1 ORDER BY "name" DESC NULLS FIRST, "id" ASC LIMIT ?2 OFFSET ?3"#
        )
        #expect(sqlite.page.arguments == [.text("Ann"), .integer(10), .integer(5)])
        #expect(sqlite.count == CompiledSQL(#"SELECT count(*) FROM "people" WHERE "name" = ?1"#, [.text("Ann")]))
        let postgres = try QueryCompiler(.postgres, endpoint: try Self.endpoint()).records(query)
        #expect(
            postgres.page.sql
                == #"SELECT "id", "name", "city", "score", "active", "joined", "_raw" FROM "people" WHERE "name" COLLATE "C" = $1 ORDER BY "name" COLLATE "C" DESC NULLS FIRST, "id" ASC LIMIT $2 OFFSET $3"#
        )
        #expect(postgres.page.arguments == sqlite.page.arguments)
    }

    @Test("no limit: SQLite's -1, PostgreSQL's NULL")
    func noLimit() throws {
        let endpoint = try Self.endpoint()
        #expect(
            try QueryCompiler(.sqlite, endpoint: endpoint).records(RecordQuery()).page.arguments == [
                .integer(-1), .integer(0),
            ])
        #expect(
            try QueryCompiler(.postgres, endpoint: endpoint).records(RecordQuery()).page.arguments == [
                .null, .integer(0),
            ])
    }

    /// A filter, its condition in each dialect, and what each binds.
    struct Case: Sendable, CustomTestStringConvertible {
        let filter: RecordFilter
        let conditions: (sqlite: String, postgres: String)
        let arguments: (sqlite: [ColumnValue], postgres: [ColumnValue])

        /// `postgresArguments`: when PostgreSQL binds other values than SQLite (a pattern).
        init(
            _ filter: RecordFilter, _ sqlite: String, _ postgres: String, _ sqliteArguments: [ColumnValue],
            _ postgresArguments: [ColumnValue]? = nil
        ) {
            self.filter = filter
            conditions = (sqlite, postgres)
            arguments = (sqliteArguments, postgresArguments ?? sqliteArguments)
        }

        var testDescription: String { conditions.sqlite }
    }

    static let cases: [Case] = [
        Case(.like("name", "A_*"), #""name" GLOB ?1"#, #""name" COLLATE "C" LIKE $1"#, [.text("A?*")], [.text("A_%")]),
        Case(
            RecordFilter(column: "name", op: .ilike, values: ["a_*"], negated: true),
            #"NOT ("name" LIKE ?1 ESCAPE '\')"#, #"NOT ("name" COLLATE "C" ILIKE $1)"#, [.text("a_%")]),
        Case(
            RecordFilter(column: "id", op: .like, values: ["1*"]), #""id" GLOB ?1"#, #""id"::text LIKE $1"#,
            [.text("1*")], [.text("1%")]),
        Case(.oneOf("id", ["1", "2"]), #""id" IN (?1, ?2)"#, #""id" IN ($1, $2)"#, [.integer(1), .integer(2)]),
        Case(.oneOf("id", []), #""id" IN ()"#, "FALSE", []),
        Case(
            RecordFilter(column: "active", op: .is, values: ["TRUE"]), #""active" IS 1"#,
            #""active" IS NOT DISTINCT FROM 1"#, []),
        Case(RecordFilter(column: "name", op: .is, values: ["false"]), #""name" IS 0"#, "FALSE", []),
        Case(.isNull("name"), #""name" IS NULL"#, #""name" IS NULL"#, []),
        Case(
            RecordFilter(column: "active", op: .lt, values: ["true"]), #""active" < ?1"#, #""active" < $1"#,
            [.integer(1)]),
    ]

    @Test("each operator's condition, in each dialect", arguments: cases)
    func condition(_ test: Case) throws {
        let endpoint = try Self.endpoint()
        for (dialect, condition, arguments) in [
            (SQLDialect.sqlite, test.conditions.sqlite, test.arguments.sqlite),
            (.postgres, test.conditions.postgres, test.arguments.postgres),
        ] {
            let count = try QueryCompiler(dialect, endpoint: endpoint).records(RecordQuery(filters: [test.filter]))
                .count
            #expect(count.sql == #"SELECT count(*) FROM "people" WHERE "# + condition)
            #expect(count.arguments == arguments)
        }
    }

    @Test("an unknown column and a value that does not fit are refused before any SQL runs")
    func refusals() throws {
        let compiler = QueryCompiler(.postgres, endpoint: try Self.endpoint())
        #expect(throws: StoreError.self) { try compiler.records(RecordQuery(filters: [.equal("nope", "1")])) }
        #expect(throws: StoreError.self) { try compiler.records(RecordQuery(filters: [.equal("id", "x")])) }
        #expect(throws: StoreError.self) { try compiler.record(key: ["1", "2"]) }
    }

    @Test("one record by its key")
    func record() throws {
        let endpoint = try Self.endpoint()
        #expect(
            try QueryCompiler(.sqlite, endpoint: endpoint).record(key: ["7"])
                == CompiledSQL(
                    #"SELECT "_raw", "_version", "_changed_at" FROM "people" WHERE "id" = ?1"#, [.integer(7)]))
        #expect(
            try QueryCompiler(.postgres, endpoint: endpoint).record(key: ["7"]).sql
                == #"SELECT "_raw", "_version", "_changed_at" FROM "people" WHERE "id" = $1"#)
    }

    @Test("the change feed: the key's JSON written by SQLite, its columns read from PostgreSQL")
    func changes() throws {
        let endpoint = try Self.endpoint()
        let sqlite = QueryCompiler(.sqlite, endpoint: endpoint).changes(since: 3, after: nil)
        #expect(sqlite.rows.sql.contains(#""_version", _rowid_, json_quote("id") FROM "people""#))
        #expect(sqlite.rows.arguments == [.integer(3)])
        #expect(sqlite.deletions.sql.contains("WHERE endpoint = ?2 AND version > ?1 ORDER BY version, _rowid_"))
        #expect(sqlite.deletions.arguments == [.integer(3), .text("people")])
        let after = ChangePosition(version: 5, isDeletion: true, rowid: 9)
        let postgres = QueryCompiler(.postgres, endpoint: endpoint).changes(since: 3, after: after)
        #expect(postgres.rows.sql.contains(#""_version", "_row", "id" FROM "people""#))
        #expect(postgres.rows.sql.contains(#"("_version" > $2 OR ($3 = 0 AND "_row" > $4))"#))
        #expect(postgres.rows.arguments == [.integer(3), .integer(5), .integer(1), .integer(9)])
        #expect(
            postgres.deletions.sql.contains("endpoint = $5 AND version >= $2 AND (version > $2 OR $3 = 0 OR id > $4)"))
        #expect(postgres.deletions.arguments == postgres.rows.arguments + [.text("people")])
    }

    @Test("a read's tag is the instance and the version it describes")
    func tags() {
        #expect(ReadTags(instance: "abc").tag(7) == #""abc.7""#)
    }
}
