import Foundation
import Testing

/// `syncd drift` and the log's one line per new drift, from the built binary.
@Suite("syncd drift")
struct DriftCLITests {
    @Test("the log says each new drift once; syncd drift lists the journal; an unknown endpoint is a usage error")
    func drift() async throws {
        let workspace = try CLITests.Workspace(
            toml: """
                database = "cache.db"

                [[endpoint]]
                name = "users"
                url = "file://WORKSPACE/users.json"
                records = "$"
                primary_key = ["id"]

                [endpoint.columns]
                id = { path = "id", type = "integer" }
                name = "name"
                """)
        defer { workspace.remove() }
        let config = try String(contentsOfFile: workspace.config, encoding: .utf8)
        try config.replacingOccurrences(of: "WORKSPACE", with: workspace.path)
            .write(toFile: workspace.config, atomically: true, encoding: .utf8)
        func sync(_ json: String) async throws -> String {
            try json.write(toFile: workspace.path + "/users.json", atomically: true, encoding: .utf8)
            let result = try await SyncdProcess.run(
                ["sync", "--config", workspace.config], environment: ["SYNCD_LOG_LEVEL": "notice"])
            #expect(result.status == 0, "\(result.standardError)")
            return result.standardError
        }
        let first = try await sync(#"[{"id": 1, "name": "Ann", "age": 36}]"#)
        #expect(!first.contains("Schema drift"), "the first sync sets the baseline: \(first)")
        let added = try await sync(#"[{"id": 1, "name": "Ann", "session_token": "t0ps3cret", "age": 36}]"#)
        #expect(added.contains(#"Schema drift drift="new field \"session_token\"""#), "\(added)")
        #expect(added.contains(#"see="syncd drift users""#))
        let again = try await sync(#"[{"id": 1, "name": "Ann", "session_token": "t0ps3cret", "age": 37}]"#)
        #expect(!again.contains("Schema drift"), "a drift the journal holds is not said again")
        let changed = try await sync(#"[{"id": 1, "name": {"first": "Ann"}}]"#)
        #expect(changed.contains(#"type change at \"name\" (string → object)"#), "\(changed)")

        let list = try await workspace.run(["drift", "users", "--format", "csv"])
        #expect(list.status == 0)
        let lines = list.standardOutput.split(separator: "\r\n").map { $0.split(separator: ",").prefix(3) }
        #expect(
            lines.map { $0.joined(separator: ",") } == [
                "endpoint,kind,path", "users,new_field,age", "users,new_field,session_token", "users,type_change,name",
            ])
        #expect(!list.standardOutput.contains("t0ps3cret"), "a secret's value is never kept")
        let unknown = try await workspace.run(["drift", "nope"])
        #expect(
            unknown.status == 64
                && unknown.standardError == "syncd: there is no endpoint \"nope\" in the configuration\n")
    }
}
