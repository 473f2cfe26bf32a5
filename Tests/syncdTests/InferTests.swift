import Foundation
import SampleUpstream
import Testing

@Suite("syncd infer")
struct InferTests {
    typealias Workspace = CLITests.Workspace

    static let header = """
        database = "cache.db"

        [server]
        listen = "off"


        """

    /// A workspace holding `users.json` with `count` sample users.
    static func workspace(users count: Int) throws -> Workspace {
        let workspace = try Workspace(toml: "")
        try Data(SampleUsers.json(count: count)).write(to: URL(fileURLWithPath: workspace.path + "/users.json"))
        return workspace
    }

    @Test("the stanza inferred from a file passes check-config, and a sync with it stores every record")
    func stanzaSyncs() async throws {
        let workspace = try Self.workspace(users: 25)
        defer { workspace.remove() }
        let inferred = try await SyncdProcess.run(["infer", workspace.path + "/users.json"])
        #expect(inferred.status == 0, "\(inferred.standardError)")
        #expect(inferred.standardError == "syncd: 25 records at \"$\", 15 columns\n")
        let stanza = inferred.standardOutput
        #expect(stanza.hasPrefix("# 25 records at \"$\": every one was read to infer these columns.\n[[endpoint]]\n"))
        #expect(stanza.contains("name = \"users\"\nurl = \"file://\(workspace.path)/users.json\"\n"))
        #expect(stanza.contains("records = \"$\"\nprimary_key = [\"id\"]\n"))
        #expect(stanza.contains("id = { path = \"id\", type = \"integer\", required = true }\n"))
        #expect(stanza.contains("address_geo_lat = { path = \"address.geo.lat\", "))
        try (Self.header + stanza).write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let check = try await workspace.run(["check-config"])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        let sync = try await workspace.run(["sync"])
        #expect(sync.status == 0, "\(sync.standardError)")
        let count = try await workspace.run(["sql", "SELECT count(*) AS n, count(address_geo_lat) AS lat FROM users"])
        #expect(count.standardOutput.contains("25"), "\(count.standardOutput)")
        let rejected = try await workspace.run(["sql", "SELECT count(*) AS n FROM syncd_errors", "--format", "csv"])
        #expect(rejected.standardOutput == "n\r\n0\r\n")
    }

    /// The body of a fixture in `Tests/Fixtures/infer`.
    static func fixture(_ name: String) throws -> Data {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/infer/\(name).json")
        return try Data(contentsOf: url)
    }

    @Test("Mastodon's grouped notifications: stderr says notification_groups was chosen over the side-loaded statuses")
    func sideLoadedEnvelope() async throws {
        let workspace = try Workspace(toml: "")
        defer { workspace.remove() }
        let file = workspace.path + "/notifications.json"
        try Self.fixture("mastodon-grouped-notifications").write(to: URL(fileURLWithPath: file))
        let inferred = try await SyncdProcess.run(["infer", file])
        #expect(inferred.status == 0, "\(inferred.standardError)")
        #expect(
            inferred.standardError
                == "syncd: 3 records at \"notification_groups\", 9 columns; of the arrays of 3, \"statuses\" is "
                + "side-loaded (these records refer to its keys); other arrays of objects: \"accounts\" (2), "
                + "\"statuses\" (3) (choose with --records PATH)\n")
        #expect(inferred.standardOutput.contains("records = \"notification_groups\"\nprimary_key = [\"group_key\"]\n"))
        try (Self.header + inferred.standardOutput).write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let check = try await workspace.run(["check-config"])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        let sync = try await workspace.run(["sync"])
        #expect(sync.status == 0, "\(sync.standardError)")
        let keys = try await workspace.run(
            ["sql", "SELECT group_key FROM notifications ORDER BY group_key", "--format", "csv"])
        #expect(
            keys.standardOutput
                == "group_key\r\ngrouped-113010503322889311-favourite-478\r\ngrouped-113010503322889500-reblog-478\r\n"
                + "ungrouped-34975900\r\n")
    }

    @Test(
        "starred repositories over HTTP with a Link header: key repo_id, link pagination, and the stanza syncs both pages"
    )
    func starredOverHTTP() async throws {
        let firstPage = try String(decoding: Self.fixture("github-starred"), as: UTF8.self)
        // The second page: the same repositories under other ids.
        let secondPage = ["1296269": "1", "17881631": "2", "44838949": "3"].reduce(firstPage) { page, id in
            page.replacingOccurrences(of: "\"id\": \(id.key),", with: "\"id\": \(id.value),")
        }
        let server = try await LoopbackHTTPServer.start { request in
            guard request.query["page"] == "2" else {
                return .json(Array(firstPage.utf8), headers: [("Link", #"</user/starred?page=2>; rel="next""#)])
            }
            return .json(Array(secondPage.utf8))
        }
        let workspace = try Workspace(toml: "")
        defer { workspace.remove() }
        let inferred = try await SyncdProcess.run(["infer", server.baseURL + "/user/starred"])
        #expect(inferred.status == 0, "\(inferred.standardError)")
        let stanza = inferred.standardOutput
        #expect(
            stanza.contains(
                "records = \"$\"\n# The key is nested: \"repo.id\" is unique in every record here; check that no two "
                    + "records can share it.\nprimary_key = [\"repo_id\"]\n# The response's Link header has a "
                    + "rel=\"next\" link: pages follow it.\npagination = { type = \"link\" }\n\n"))
        try (Self.header + stanza).write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let check = try await workspace.run(["check-config"])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        let sync = try await workspace.run(["sync"])
        try await server.shutdown()
        #expect(sync.status == 0, "\(sync.standardError)")
        let rows = try await workspace.run(["sql", "SELECT repo_id FROM starred ORDER BY repo_id", "--format", "csv"])
        #expect(rows.standardOutput == "repo_id\r\n1\r\n2\r\n3\r\n1296269\r\n17881631\r\n44838949\r\n")
    }

    @Test("--swift prints models that typecheck and decode the sample")
    func swiftModels() async throws {
        let workspace = try Self.workspace(users: 5)
        defer { workspace.remove() }
        let inferred = try await SyncdProcess.run(["infer", "--swift", workspace.path + "/users.json"])
        #expect(inferred.status == 0, "\(inferred.standardError)")
        #expect(inferred.standardOutput.contains("typealias Users = [User]\n"))
        #expect(inferred.standardOutput.contains("struct User: Codable, Sendable {\n    let id: Int\n"))
        try inferred.standardOutput.write(toFile: workspace.path + "/Models.swift", atomically: true, encoding: .utf8)
        let main = """
            import Foundation
            let data = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
            let users = try JSONDecoder().decode(Users.self, from: data)
            print(users.count, users[0].address.geo.lat)
            """
        try main.write(toFile: workspace.path + "/main.swift", atomically: true, encoding: .utf8)
        let build = try await SyncdProcess.shell(
            "cd '\(workspace.path)' && swiftc -typecheck Models.swift && swiftc -o decode Models.swift main.swift")
        #expect(build.status == 0, "\(build.standardOutput)\(build.standardError)")
        let decoded = try await SyncdProcess.shell("'\(workspace.path)/decode' '\(workspace.path)/users.json'")
        #expect(decoded.status == 0, "\(decoded.standardError)")
        #expect(decoded.standardOutput.hasPrefix("5 "))
    }

    @Test("over HTTP from a loopback upstream: records from /users, a document from /flags.json")
    func overHTTP() async throws {
        let upstream = DemoUpstream(userCount: 7)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let users = try await SyncdProcess.run(["infer", server.baseURL + "/users"])
        let flags = try await SyncdProcess.run(["infer", server.baseURL + "/flags.json", "--name", "feature_flags"])
        let missing = try await SyncdProcess.run(["infer", server.baseURL + "/missing"])
        try await server.shutdown()
        #expect(users.status == 0, "\(users.standardError)")
        #expect(users.standardOutput.contains("name = \"users\"\nurl = \"\(server.baseURL)/users\"\nrecords = \"$\"\n"))
        #expect(flags.status == 0, "\(flags.standardError)")
        #expect(flags.standardOutput.hasSuffix("name = \"feature_flags\"\nurl = \"\(server.baseURL)/flags.json\"\n"))
        #expect(missing.status == 1)
        #expect(
            missing.standardError == "syncd: cannot read the response: the server answered 404 Not Found, not a 2xx\n")
    }

    @Test("standard input, --records and --name")
    func standardInput() async throws {
        let workspace = try Workspace(toml: "")
        defer { workspace.remove() }
        let body = #"{"meta": {"total": 2}, "data": {"items": [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 2}]}}"#
        try body.write(toFile: workspace.path + "/page.json", atomically: true, encoding: .utf8)
        let result = try await SyncdProcess.shell(
            "'\(SyncdProcess.binary.path)' infer - --name stock < '\(workspace.path)/page.json'")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardError
                == "syncd: 2 records at \"data.items\", 2 columns\nsyncd: read from standard input: replace the url\n")
        #expect(result.standardOutput.contains("name = \"stock\"\nurl = \"https://example.com/TODO\"\n"))
        #expect(result.standardOutput.contains("records = \"data.items\"\nprimary_key = [\"sku\"]\n"))
        let wrong = try await SyncdProcess.run(["infer", workspace.path + "/page.json", "--records", "meta"])
        #expect(wrong.status == 1)
        #expect(wrong.standardError == "syncd: \"meta\" is an object, not an array of objects\n")
    }

    @Test("a body that is not JSON, or an empty array, exits 1 with one sentence")
    func refused() async throws {
        let workspace = try Workspace(toml: "")
        defer { workspace.remove() }
        try "[{\"a\": 1},\n {\"a\": tru}]".write(
            toFile: workspace.path + "/bad.json", atomically: true, encoding: .utf8)
        try "[]".write(toFile: workspace.path + "/empty.json", atomically: true, encoding: .utf8)
        let bad = try await SyncdProcess.run(["infer", workspace.path + "/bad.json"])
        #expect(bad.status == 1)
        #expect(
            bad.standardError
                == "syncd: the response is not valid JSON: at byte 21 (line 2, column 11) expected the literal true, found \"}\"\n"
        )
        let empty = try await SyncdProcess.run(["infer", workspace.path + "/empty.json"])
        #expect(empty.status == 1)
        #expect(
            empty.standardError
                == "syncd: the response is an empty array, with no records to infer columns from; infer from a "
                + "response that holds some\n")
        let absent = try await SyncdProcess.run(["infer", workspace.path + "/absent.json"])
        #expect(absent.status == 1)
        #expect(absent.standardError.hasPrefix("syncd: cannot read the response: "))
        let badName = try await SyncdProcess.run(["infer", workspace.path + "/bad.json", "--name", "Users"])
        #expect(badName.status == 64)
    }

    @Test("an array of strings gives a document endpoint, as the help says: exit 0, and the stanza syncs the body")
    func arrayOfStrings() async throws {
        let workspace = try Workspace(toml: "")
        defer { workspace.remove() }
        let file = workspace.path + "/tags.json"
        try #"["swift", "sqlite"]"#.write(toFile: file, atomically: true, encoding: .utf8)
        let inferred = try await SyncdProcess.run(["infer", file])
        #expect(inferred.status == 0, "\(inferred.standardError)")
        #expect(
            inferred.standardError
                == "syncd: no array of objects found: a document endpoint (use --records PATH to name one)\n")
        #expect(
            inferred.standardOutput
                == "# No array of objects in the response: a document endpoint caches the whole body.\n[[endpoint]]\n"
                + "name = \"tags\"\nurl = \"file://\(file)\"\n")
        try (Self.header + inferred.standardOutput).write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let sync = try await workspace.run(["sync"])
        #expect(sync.status == 0, "\(sync.standardError)")
        let body = try await workspace.run(["get", "tags"])
        #expect(body.standardOutput.contains("sqlite"), "\(body.standardOutput)\(body.standardError)")
    }

    @Test("the stanzas proposed for a Stripe list and, uncommented, a GraphQL connection pass check-config")
    func newPaginationKeysCheck() async throws {
        let workspace = try Workspace(toml: "")
        defer { workspace.remove() }
        var stanzas = ""
        for name in ["stripe-customers", "github-graphql-issues"] {
            let file = workspace.path + "/\(name).json"
            try Self.fixture(name).write(to: URL(fileURLWithPath: file))
            let inferred = try await SyncdProcess.run(["infer", file])
            #expect(inferred.status == 0, "\(inferred.standardError)")
            stanzas +=
                inferred.standardOutput.replacingOccurrences(of: "# method = ", with: "method = ")
                .replacingOccurrences(of: "# body = ", with: "body = ")
                .replacingOccurrences(of: "# pagination = ", with: "pagination = ") + "\n"
        }
        #expect(stanzas.contains("\npagination = { type = \"cursor\", from = \"last_record\""))
        #expect(stanzas.contains("\nmethod = \"POST\"\n"))
        try (Self.header + stanzas).write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let check = try await workspace.run(["check-config"])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
    }
}
