import Foundation
import SampleUpstream
import Testing

/// `syncd run` serving the cache over HTTP, read by real clients: curl, and the Python `postgrest` package.
@Suite("syncd run: the read API")
struct ReadAPIDaemonTests {
    /// The address in READY's STATUS line: `… read API on 127.0.0.1:PORT`.
    static func address(in messages: [String]) -> String? {
        for message in messages {
            guard let range = message.range(of: "read API on ") else { continue }
            return String(message[range.upperBound...].prefix { !$0.isWhitespace })
        }
        return nil
    }

    /// curl reads record 3 with the ETag `syncd get` prints, then revalidates it to a 304, then a filtered list.
    static func readWithCurl(_ workspace: CLITests.Workspace, at address: String) async throws {
        let get = try await workspace.run(["get", "users", "3"])
        let etag = try #require(get.standardError.split(separator: "\n").first { $0.hasPrefix("ETag: ") }?.dropFirst(6))
        let first = try await SyncdProcess.shell("curl -sS -D - http://\(address)/v1/endpoints/users/records/3")
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(first.standardOutput.contains("ETag: \(etag)\r\n"))
        #expect(first.standardOutput.contains("Cache-Status: syncd; hit; ttl="))
        #expect(first.standardOutput.hasSuffix(get.standardOutput.trimmingCharacters(in: .newlines)))
        let again = try await SyncdProcess.shell(
            "curl -sS -o /dev/null -w '%{http_code}' -H 'If-None-Match: \(etag)' "
                + "http://\(address)/v1/endpoints/users/records/3")
        #expect(again.standardOutput == "304")
        let list = try await SyncdProcess.shell(
            "curl -sS 'http://\(address)/v1/endpoints/users/records?select=id&id=lte.2'")
        #expect(list.standardOutput == #"[{"id":1},{"id":2}]"#)
    }

    /// Whether the `postgrest` client is installed (`.ci/run` installs it with pip).
    static let hasPythonClient: Bool = {
        let finds = OpenAPIDaemonTests.pythonFinds("postgrest")
        let check = try? ChildProcess.spawn("/bin/sh", ["-c", "python3 -c \(finds) 2>/dev/null"])
        return check?.waitBlocking() == 0
    }()

    @Test(
        "READY comes once the API listens; curl reads a record with the ETag syncd get prints, and revalidates to 304"
    )
    func curl() async throws {
        let upstream = DemoUpstream(userCount: 8)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let workspace = try CLITests.Workspace(toml: CLITests.toml(server.baseURL))
        defer { workspace.remove() }
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            let messages = await notify.waitFor("READY=1", "STATUS=users: 200", "STATUS=flags: 200")
            let address = try #require(Self.address(in: messages), "\(messages)")
            try await Self.readWithCurl(workspace, at: address)
            let metrics = try await SyncdProcess.shell("curl -sS http://\(address)/metrics")
            #expect(metrics.standardOutput.contains(#"syncd_syncs_total{endpoint="users",outcome="changed"} 1"#))
            signal(SIGTERM)
        }
        try await server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test(
        "the Python postgrest client reads /rest: filters, ilike with %, order, limit, count and errors, a 405",
        .enabled(if: hasPythonClient || ProcessInfo.processInfo.environment["CI"] != nil))
    func postgrestClient() async throws {
        let upstream = DemoUpstream(userCount: 12)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let workspace = try CLITests.Workspace(toml: CLITests.toml(server.baseURL))
        defer { workspace.remove() }
        let script = workspace.path + "/client.py"
        try """
        import json, sys
        from postgrest import SyncPostgrestClient
        from postgrest.exceptions import APIError

        with SyncPostgrestClient(sys.argv[1]) as client:
            page = client.from_("users").select("id,name").in_("id", [1, 2, 3, 4]).order("id", desc=True).limit(2).execute()
            print(json.dumps(page.data))
            counted = client.from_("users").select("*", count="exact").gte("id", 5).limit(3).execute()
            print(len(counted.data), counted.count)
            try:
                client.from_("users").select("*").eq("email", "x").execute()
            except APIError as error:
                print("APIError", error.code, error.message)
            part = page.data[0]["name"][1:4].upper()
            matched = client.from_("users").select("id").ilike("name", f"%{part}%").execute()
            print(4 in [row["id"] for row in matched.data])
            try:
                client.from_("users").insert({"id": 99}).execute()
            except APIError as error:
                print("APIError", error.code, error.message)
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            let messages = await notify.waitFor("READY=1", "STATUS=users: 200")
            let address = try #require(Self.address(in: messages), "\(messages)")
            let names = try await workspace.run(["query", "users", "--where", "id=4", "--format", "json"])
            let client = try await SyncdProcess.shell("python3 \(script) http://\(address)/rest")
            #expect(client.status == 0, "\(client.standardError)")
            let lines = client.standardOutput.split(separator: "\n").map(String.init)
            let page = try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [[String: Any]]
            #expect(page?.compactMap { $0["id"] as? Int } == [4, 3])
            let name = page?.first?["name"] as? String
            #expect(name != nil && names.standardOutput.contains(name ?? "-"))
            #expect(lines.dropFirst().first == "3 8")
            #expect(
                lines.dropFirst(2).first?.hasPrefix("APIError bad_parameter \"email\" is not a configured column")
                    == true)
            #expect(lines.dropFirst(3).first == "True", "ilike with % finds the name it was cut from")
            #expect(
                lines.dropFirst(4).first
                    == "APIError method_not_allowed The read API is read-only: it answers GET and HEAD.")
            signal(SIGTERM)
        }
        try await server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test(
        "through the Python postgrest client, NULLs sort last ascending and first descending; nullsfirst flips them",
        .enabled(if: hasPythonClient || ProcessInfo.processInfo.environment["CI"] != nil))
    func postgrestNullOrder() async throws {
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        // Record 3 has no score at all, record 2 an explicit null: both are NULL in the column.
        try #"[{"id": 1, "score": 2.5}, {"id": 2, "score": null}, {"id": 3}, {"id": 4, "score": -1}]"#
            .write(toFile: workspace.path + "/scores.json", atomically: true, encoding: .utf8)
        try """
        database = "cache.db"

        [server]
        listen = "127.0.0.1:0"

        [[endpoint]]
        name = "scores"
        url = "file://\(workspace.path)/scores.json"
        records = "$"
        primary_key = ["id"]

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        score = { path = "score", type = "real" }
        """.write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let script = workspace.path + "/client.py"
        try """
        import sys
        from postgrest import SyncPostgrestClient

        with SyncPostgrestClient(sys.argv[1]) as client:
            def ids(**order):
                rows = client.from_("scores").select("id").order("score", **order).order("id").execute().data
                return " ".join(str(row["id"]) for row in rows)
            print(ids())
            print(ids(desc=True))
            print(ids(nullsfirst=True))
            print(ids(desc=True, nullsfirst=False))
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            let messages = await notify.waitFor("READY=1", "STATUS=scores: 200")
            let address = try #require(Self.address(in: messages), "\(messages)")
            let client = try await SyncdProcess.shell("python3 \(script) http://\(address)/rest")
            #expect(client.status == 0, "\(client.standardError)")
            #expect(client.standardOutput == "4 1 2 3\n2 3 1 4\n2 3 4 1\n1 4 2 3\n")
            signal(SIGTERM)
        }
        #expect(result.status == 0, "\(result.standardError)")
    }
}
