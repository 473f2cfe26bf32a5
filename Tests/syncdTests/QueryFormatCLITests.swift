import Foundation
import Testing

/// `syncd query --format json` prints each record's bytes exactly as the upstream sent them, as `get` does;
/// `--format ndjson` keeps one record a line.
@Suite("syncd query: json and ndjson keep the records")
struct QueryFormatCLITests {
    static let body = """
        [
          {
            "id": 1,
            "name": "Ada"
          },
          {"id": 2, "name": "Bo"}
        ]
        """

    @Test("json keeps a pretty-printed record's line breaks; ndjson turns them into spaces, one record a line")
    func prettyPrinted() async throws {
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        try Self.body.write(toFile: workspace.path + "/users.json", atomically: true, encoding: .utf8)
        try """
        database = "cache.db"

        [[endpoint]]
        name = "users"
        url = "file://\(workspace.path)/users.json"
        records = "$"
        primary_key = ["id"]

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        """.write(toFile: workspace.config, atomically: true, encoding: .utf8)
        #expect(try await workspace.run(["sync"]).status == 0)

        let json = try await workspace.run(["query", "users", "--format", "json"])
        let ndjson = try await workspace.run(["query", "users", "--format", "ndjson"])

        #expect(json.status == 0)
        #expect(
            json.standardOutput == """
                [
                  {
                    "id": 1,
                    "name": "Ada"
                  },
                  {"id": 2, "name": "Bo"}
                ]

                """)
        #expect(ndjson.status == 0)
        #expect(
            ndjson.standardOutput == """
                {     "id": 1,     "name": "Ada"   }
                {"id": 2, "name": "Bo"}

                """)
    }
}
