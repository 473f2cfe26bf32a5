import Foundation
import SampleUpstream
import SyncTesting
import Testing

/// The `syncd` binary with `database = "postgresql://…"`: the commands work against a real PostgreSQL (the tests'
/// own throwaway cluster) as they do against an SQLite file.
@Suite("syncd CLI on PostgreSQL", .enabled(if: PostgresTestCluster.isAvailable))
struct PostgresCLITests {
    static func toml(database: String, baseURL: String) -> String {
        CLITests.toml(baseURL).replacingOccurrences(of: #"database = "cache.db""#, with: #"database = "\#(database)""#)
    }

    @Test("sync, status, query, get, migrate; a second sync of the same data changes nothing")
    func commands() async throws {
        let database = try await PostgresTestCluster.shared().makeDatabase()
        let upstream = DemoUpstream(userCount: 20)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let workspace = try CLITests.Workspace(toml: Self.toml(database: database, baseURL: server.baseURL))
        defer { workspace.remove() }

        let sync = try await workspace.run(["sync"])
        #expect(sync.status == 0, "\(sync.standardError)")
        #expect(!FileManager.default.fileExists(atPath: workspace.path + "/cache.db"), "no SQLite file made")

        let status = try await workspace.run(["status", "--format", "json"])
        #expect(status.status == 0, "\(status.standardError)")
        let rows = try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [[String: Any]]
        let users = try #require(rows?.first { $0["endpoint"] as? String == "users" })
        #expect(users["records"] as? Int == 20)
        #expect(users["version"] as? Int == 1)

        let json = try await workspace.run(["query", "users", "--limit", "3", "--format", "json"])
        #expect(json.status == 0, "\(json.standardError)")
        let array = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
        #expect(array?.compactMap { $0["id"] as? Int } == [1, 2, 3])
        let csv = try await workspace.run(["query", "users", "--where", "id=3", "--format", "csv"])
        #expect(csv.standardOutput.hasPrefix("id,name,city,lat\r\n3,"))

        let get = try await workspace.run(["get", "users", "3"])
        #expect(get.status == 0, "\(get.standardError)")
        #expect(get.standardOutput.contains("\"id\": 3") || get.standardOutput.contains("\"id\":3"))
        let missing = try await workspace.run(["get", "users", "999"])
        #expect(missing.status == 4)

        let again = try await workspace.run(["sync"])
        #expect(again.status == 0, "\(again.standardError)")
        let after = try await workspace.run(["status", "--format", "json"])
        let rowsAfter = try JSONSerialization.jsonObject(with: Data(after.standardOutput.utf8)) as? [[String: Any]]
        #expect(rowsAfter?.first { $0["endpoint"] as? String == "users" }?["version"] as? Int == 1)

        let check = try await workspace.run(["check-config"])
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardError.isEmpty, "\(check.standardError)")
        let rekeyed = try CLITests.Workspace(
            toml: Self.toml(database: database, baseURL: server.baseURL).replacingOccurrences(
                of: #"id = { path = "id", type = "integer" }"#, with: #"id = "id""#))
        defer { rekeyed.remove() }
        let conflict = try await rekeyed.run(["check-config"])
        #expect(conflict.status == 78)
        #expect(conflict.standardError.contains("primary_key:"), "\(conflict.standardError)")

        let migrate = try await workspace.run(["migrate"])
        #expect(migrate.status == 0, "\(migrate.standardError)")
        #expect(migrate.standardOutput.contains("is migrated to this version of syncd"))
        try await server.shutdown()
    }

    @Test("syncd run syncs into PostgreSQL and serves it: READY, a record with its ETag, a 304, a filtered list")
    func daemon() async throws {
        let database = try await PostgresTestCluster.shared().makeDatabase()
        let upstream = DemoUpstream(userCount: 8)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let workspace = try CLITests.Workspace(toml: Self.toml(database: database, baseURL: server.baseURL))
        defer { workspace.remove() }
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            let messages = await notify.waitFor("READY=1", "STATUS=users: 200", "STATUS=flags: 200")
            let address = try #require(ReadAPIDaemonTests.address(in: messages), "\(messages)")
            try await ReadAPIDaemonTests.readWithCurl(workspace, at: address)
            signal(SIGTERM)
        }
        try await server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test("a password from password_file reaches a server that asks for one; a wrong one or no file is one sentence")
    func passwordFile() async throws {
        let cluster = try await PostgresTestCluster.shared()
        let database = try await cluster.makePasswordUser(
            owning: try await cluster.makeDatabase(), password: "s3cret-pw")
        let upstream = DemoUpstream(userCount: 5)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let toml = Self.toml(database: database, baseURL: server.baseURL)
            .replacingOccurrences(of: "[server]\n", with: "password_file = \"pg.pass\"\n\n[server]\n")
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        let missing = try await workspace.run(["sync"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("cannot read the password file \(workspace.path)/pg.pass"))
        try Data("wrong\n".utf8).write(to: URL(fileURLWithPath: workspace.path + "/pg.pass"))
        let wrong = try await workspace.run(["sync"])
        #expect(wrong.status == 1)
        #expect(wrong.standardError.contains("password authentication failed"), "\(wrong.standardError)")
        #expect(!wrong.standardError.contains("wrong"))
        try Data("s3cret-pw\n".utf8).write(to: URL(fileURLWithPath: workspace.path + "/pg.pass"))
        let sync = try await workspace.run(["sync"])
        #expect(sync.status == 0, "\(sync.standardError)")
        let status = try await workspace.run(["status", "--format", "csv"])
        #expect(status.status == 0, "\(status.standardError)")
        #expect(status.standardOutput.contains("users,collection,5,1,"))
        try await server.shutdown()
    }

    @Test("a database URL that cannot be read is a configuration error naming the line and the key, not the password")
    func brokenURL() async throws {
        let workspace = try CLITests.Workspace(
            toml: Self.toml(
                database: "postgresql://syncd:hunter2@db.example/cache?sslmode=sometimes", baseURL: "http://127.0.0.1:1"
            ))
        defer { workspace.remove() }
        let check = try await workspace.run(["check-config"])
        #expect(check.status == 78)
        #expect(
            check.standardError.contains("syncd.toml:1: database: the PostgreSQL database URL"),
            "\(check.standardError)")
        #expect(check.standardError.contains("sslmode=sometimes"))
        #expect(!check.standardError.contains("hunter2"))
    }

    @Test("a server that is not there: sync exits 1 with one sentence naming the database without its password")
    func unreachable() async throws {
        let workspace = try CLITests.Workspace(
            toml: Self.toml(
                database: "postgresql://syncd:hunter2@127.0.0.1:1/cache?connect_timeout=2",
                baseURL: "http://127.0.0.1:1"))
        defer { workspace.remove() }
        let check = try await workspace.run(["check-config"])
        #expect(check.status == 0)
        #expect(check.standardError.contains("note: the database was not checked against the configuration"))
        #expect(!check.standardError.contains("hunter2"))
        let sync = try await workspace.run(["sync"])
        #expect(sync.status == 1)
        #expect(sync.standardError.contains("postgresql://syncd@127.0.0.1:1/cache"), "\(sync.standardError)")
        #expect(!sync.standardError.contains("hunter2"))
        #expect(sync.standardError.split(separator: "\n").count == 1, "\(sync.standardError)")
    }
}
