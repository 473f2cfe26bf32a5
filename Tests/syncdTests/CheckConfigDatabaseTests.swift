import Foundation
import SampleUpstream
import Testing

/// `syncd check-config` compares the configuration with the database: a table whose primary key or primary-key
/// type disagrees is a problem, exit 78, as the next sync would refuse it.
@Suite("syncd check-config against the database")
struct CheckConfigDatabaseTests {
    @Test(
        "a changed primary key or primary-key type is refused with the endpoint's line, exit 78",
        arguments: [
            (
                #"id = { path = "id", type = "text" }"#,
                #"primary_key: the type of the primary-key column "id" of "users" changed from integer to text, which would delete every stored row; set the type back to integer, or drop the table or give the endpoint a new name"#
            ),
            (
                #"id = { path = "id", type = "integer" }"# + "\nemail = \"email\"",
                #"primary_key: the primary key of "users" changed from (id) to (email); drop the table or give the endpoint a new name"#
            ),
        ])
    func keyConflict(_ idColumn: String, _ message: String) async throws {
        let upstream = DemoUpstream(userCount: 3)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let toml = CLITests.toml(server.baseURL)
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        #expect(try await workspace.run(["sync"]).status == 0)
        try await server.shutdown()
        var edited = toml.replacingOccurrences(of: #"id = { path = "id", type = "integer" }"#, with: idColumn)
        if idColumn.contains("email") {
            edited = edited.replacingOccurrences(of: #"primary_key = ["id"]"#, with: #"primary_key = ["email"]"#)
        }
        try edited.write(toFile: workspace.config, atomically: true, encoding: .utf8)

        let result = try await workspace.run(["check-config"])

        #expect(result.status == 78)
        #expect(result.standardError == "syncd: \(workspace.config):6: [[endpoint]] \"users\": \(message)\n")
        #expect(result.standardOutput.isEmpty)
    }
}
