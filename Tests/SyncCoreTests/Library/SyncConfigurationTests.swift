import Foundation
import Testing

@testable import SyncCore

/// The configuration as a program sees it: what the file declared, its `[server]` and `[cluster]`, and the checks of
/// `syncd check-config` — the calls the binary itself makes.
@Suite("library: SyncConfiguration, as the binary reads it")
struct SyncConfigurationTests {
    static func toml(url: String, key: String = "id", columns: String = "id = { type = \"integer\" }\nname = \"name\"")
        -> String
    {
        """
        database = "cache.db"

        [server]
        listen = "127.0.0.1:9999"
        max_rows = 50
        token_file = "missing.token"

        [cluster]
        node = "node-1"
        lease = "10s"

        [[endpoint]]
        name = "users"
        url = "\(url)"
        records = "$"
        primary_key = "\(key)"
        mode = "incremental"

        [endpoint.columns]
        \(columns)
        """
    }

    @Test("the file reads back as declared: endpoints as SyncEndpoint, [server], [cluster], the database's path")
    func readsBack() throws {
        let configuration = try SyncConfiguration(
            toml: Self.toml(url: "https://u:p@example.com/users?api_key=abc"), sourcePath: "/etc/syncd/syncd.toml")
        #expect(configuration.endpointNames == ["users"])
        let users = try #require(configuration.endpoint(named: "users"))
        #expect(users.records == "$" && users.primaryKey == ["id"] && users.upsertOnly && !users.isDocument)
        #expect(users.columns.map(\.name) == ["id", "name"])
        #expect(users.redactedURL == "https://REDACTED@example.com/users?api_key=REDACTED")
        #expect(configuration.endpoint(named: "nobody") == nil)
        #expect(configuration.databasePath == "/etc/syncd/cache.db")
        #expect(configuration.server.listen == .tcp(host: "127.0.0.1", port: 9999))
        #expect(configuration.server.maxRows == 50 && configuration.server.tokenFile == "/etc/syncd/missing.token")
        #expect(configuration.cluster.nodeName == "node-1" && configuration.cluster.lease == .seconds(10))
    }

    @Test("every problem is one element of SyncError.problems, even one that quotes a line break")
    func problems() {
        let toml = "[[endpoint]]\nname = \"users\"\nurl = \"https://example.com\"\ninterval = \"0s\"\n\"a\\nb\" = 1\n"
        #expect {
            _ = try SyncConfiguration(toml: toml)
        } throws: { error in
            guard let error = error as? SyncError, error == .invalidConfiguration else { return false }
            return error.problems.count == 2 && error.problems[1].hasSuffix("unknown key \"a\nb\"")
                && error.description == error.problems.joined(separator: "\n")
        }
    }

    @Test("check: an unreadable read token and a changed key are problems at their lines; a dropped column a note")
    func check() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("syncd-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = folder.appendingPathComponent("users.json")
        try Data(#"[{"id": 1, "name": "Ada", "email": "ada@example.com"}]"#.utf8).write(to: body)
        let store = SyncStore.sqlite(path: folder.appendingPathComponent("cache.db").path)
        let first = try SyncConfiguration(
            toml: Self.toml(
                url: body.absoluteString, columns: "id = { type = \"integer\" }\nname = \"name\"\nemail = \"email\""),
            sourcePath: folder.appendingPathComponent("syncd.toml").path)
        let cache = try SyncCache(store: store, configuration: first)
        _ = try await cache.sync("users")
        try await cache.shutdown()

        let environment: [String: String] = [:]
        let unchanged = try await first.check(against: store, environment: environment)
        #expect(unchanged.problems.count == 1, "only the token: \(unchanged.problems)")
        #expect(
            unchanged.problems.first?.hasSuffix(
                ":6: [server]: token_file: secret file \(folder.path)/missing.token: no such file") == true)
        #expect(unchanged.notes.isEmpty)

        let changed = try SyncConfiguration(
            toml: Self.toml(url: body.absoluteString, key: "name"),
            sourcePath: folder.appendingPathComponent("syncd.toml").path)
        let check = try await changed.check(against: store, environment: environment)
        #expect(check.problems.count == 2)
        #expect(check.problems.last?.contains(":12: [[endpoint]] \"users\": primary_key: ") == true)
        #expect(
            check.notes == [
                "table \"users\" has a column \"email\" that is no longer configured; it is kept, and no longer filled"
            ])
        let alone = try await changed.check(against: nil, environment: environment)
        #expect(alone.problems.count == 1 && alone.notes.isEmpty, "no store: only the token")
    }
}
