import Foundation
import SampleUpstream
import Testing

/// The `syncd` binary as a person or a script uses it: output, stderr and exit codes.
@Suite("syncd CLI")
struct CLITests {
    /// A folder with a configuration pointing at a loopback upstream.
    struct Workspace {
        let path: String
        var config: String { path + "/syncd.toml" }

        init(toml: String) throws {
            var template = Array((NSTemporaryDirectory() + "syncd-cli-XXXXXX").utf8CString)
            let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
                guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
                return String(cString: base)
            }
            guard let made else { throw CocoaError(.fileWriteUnknown) }
            path = made
            try toml.write(toFile: path + "/syncd.toml", atomically: true, encoding: .utf8)
        }

        func run(_ arguments: [String]) async throws -> SyncdProcess.Result {
            try await SyncdProcess.run(arguments + ["--config", config])
        }

        func remove() { try? FileManager.default.removeItem(atPath: path) }  // best effort
    }

    static func toml(_ baseURL: String) -> String {
        """
        database = "cache.db"

        [server]
        listen = "127.0.0.1:0"

        [[endpoint]]
        name = "users"
        url = "\(baseURL)/users"
        records = "$"
        primary_key = ["id"]

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        name = "name"
        city = "address.city"
        lat = { path = "address.geo.lat", type = "real" }

        [[endpoint]]
        name = "flags"
        url = "\(baseURL)/flags.json"
        """
    }

    /// A synced workspace against the demo upstream, for the read commands.
    static func withSyncedWorkspace(_ body: (Workspace, DemoUpstream) async throws -> Void) async throws {
        let upstream = DemoUpstream(userCount: 20)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let workspace = try Workspace(toml: toml(server.baseURL))
        do {
            let sync = try await workspace.run(["sync"])
            #expect(sync.status == 0, "\(sync.standardError)")
            try await body(workspace, upstream)
        } catch {
            try? await server.shutdown()  // the test's error is the one to report
            workspace.remove()
            throw error
        }
        try await server.shutdown()
        workspace.remove()
    }

    @Test("--help documents every exit code")
    func help() async throws {
        let result = try await SyncdProcess.run(["--help"])
        #expect(result.status == 0)
        for line in [
            "0   success", "2   refused", "3   not modified", "4   not found", "64  usage",
            "78  the configuration is invalid",
        ] {
            #expect(result.standardOutput.contains(line), "\(line)")
        }
    }

    @Test("check-config accepts a valid file and summarises it")
    func checkConfigValid() async throws {
        let workspace = try Workspace(toml: Self.toml("http://127.0.0.1:9"))
        defer { workspace.remove() }
        let result = try await workspace.run(["check-config"])
        #expect(result.status == 0)
        #expect(
            result.standardOutput == """
                \(workspace.config) is valid: 2 endpoints
                  users: snapshot, 4 columns, every 5m, http://127.0.0.1:9/users
                  flags: document, every 5m, http://127.0.0.1:9/flags.json

                """)
    }

    @Test("a broken configuration names the line and the key, exit 78, in every command")
    func checkConfigBroken() async throws {
        let workspace = try Workspace(
            toml: Self.toml("http://127.0.0.1:9").replacingOccurrences(
                of: "records = \"$\"", with: "records = \"$\"\nintervall = \"5m\""))
        defer { workspace.remove() }
        for command in [["check-config"], ["sync"], ["query", "users"], ["status"]] {
            let result = try await workspace.run(command)
            #expect(result.status == 78, "\(command)")
            #expect(
                result.standardError
                    == "syncd: \(workspace.config):10: [[endpoint]] \"users\": unknown key \"intervall\"\n",
                "\(command)"
            )
            #expect(result.standardOutput.isEmpty)
        }
    }

    @Test("a missing configuration file is one sentence, exit 78")
    func missingConfig() async throws {
        let result = try await SyncdProcess.run(["check-config", "--config", "/nonexistent/syncd.toml"])
        #expect(result.status == 78)
        #expect(result.standardError.hasPrefix("syncd: /nonexistent/syncd.toml"))
        #expect(result.standardError.filter { $0 == "\n" }.count == 1)
    }

    @Test("sync is quiet when stderr is not a terminal, and query reads the records back in each format")
    func syncAndQuery() async throws {
        try await Self.withSyncedWorkspace { workspace, _ in
            let table = try await workspace.run(["query", "users", "--limit", "2"])
            #expect(table.status == 0)
            let lines = table.standardOutput.split(separator: "\n")
            #expect(lines.count == 4)
            #expect(lines.first?.hasPrefix("id  name") == true)

            let ndjson = try await workspace.run(["query", "users", "--format", "ndjson"])
            #expect(ndjson.standardOutput.split(separator: "\n").count == 20)

            let json = try await workspace.run(["query", "users", "--limit", "3", "--format", "json"])
            let array = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
            #expect(array?.compactMap { $0["id"] as? Int } == [1, 2, 3])

            let csv = try await workspace.run(["query", "users", "--where", "id=3", "--format", "csv"])
            #expect(csv.standardOutput.hasPrefix("id,name,city,lat\r\n3,"))

            let unknown = try await workspace.run(["query", "users", "--where", "email=x"])
            #expect(unknown.status == 64)
            #expect(
                unknown.standardError
                    == "syncd: \"email\" is not a configured column of \"users\" (its columns: id, name, city, lat)\n")
        }
    }

    @Test("get prints the record as received with its ETag; a matching --if-none-match exits 3 with no output")
    func getAndRevalidate() async throws {
        try await Self.withSyncedWorkspace { workspace, _ in
            let get = try await workspace.run(["get", "users", "3"])
            #expect(get.status == 0)
            #expect(get.standardOutput.hasPrefix("{"))
            #expect(get.standardOutput.contains("\"id\": 3") || get.standardOutput.contains("\"id\":3"))
            let etag = try #require(
                get.standardError.split(separator: "\n").first { $0.hasPrefix("ETag: ") }?.dropFirst(6))

            let notModified = try await workspace.run(["get", "users", "3", "--if-none-match", String(etag)])
            #expect(notModified.status == 3)
            #expect(notModified.standardOutput.isEmpty && notModified.standardError.isEmpty)

            let stale = try await workspace.run(["get", "users", "3", "--if-none-match", "\"other\""])
            #expect(stale.status == 0 && stale.standardOutput == get.standardOutput)

            let missing = try await workspace.run(["get", "users", "999"])
            #expect(missing.status == 4)
            #expect(missing.standardError == "syncd: users has no record with key 999\n")

            let document = try await workspace.run(["get", "flags"])
            #expect(document.status == 0 && document.standardOutput.contains("{"))
        }
    }

    @Test("sql reads, and refuses a write with one sentence and exit 2")
    func sql() async throws {
        try await Self.withSyncedWorkspace { workspace, _ in
            let count = try await workspace.run(["sql", "SELECT count(*) AS n FROM users", "--format", "csv"])
            #expect(count.status == 0)
            #expect(count.standardOutput == "n\r\n20\r\n")

            let write = try await workspace.run(["sql", "DELETE FROM users"])
            #expect(write.status == 2)
            #expect(
                write.standardError
                    == "syncd: syncd sql only reads: \"DELETE FROM users\" would write or change the connection\n")
            let after = try await workspace.run(["sql", "SELECT count(*) AS n FROM users", "--format", "csv"])
            #expect(after.standardOutput == "n\r\n20\r\n")
        }
    }

    @Test("status shows each endpoint's records, version and health")
    func status() async throws {
        try await Self.withSyncedWorkspace { workspace, _ in
            let result = try await workspace.run(["status", "--format", "json"])
            #expect(result.status == 0)
            let rows = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]]
            let users = try #require(rows?.first { $0["endpoint"] as? String == "users" })
            #expect(users["records"] as? Int == 20)
            #expect(users["version"] as? Int == 1)
            #expect(users["last_status"] as? Int == 200)
            #expect(users["failures"] as? Int == 0)
        }
    }

    @Test("a failing endpoint makes sync exit 1 with one sentence, while the others sync")
    func failingEndpoint() async throws {
        let upstream = DemoUpstream(userCount: 5)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let workspace = try Workspace(
            toml: Self.toml(server.baseURL).replacingOccurrences(of: "/flags.json", with: "/missing.json"))
        let result = try await workspace.run(["sync"])
        try await server.shutdown()
        defer { workspace.remove() }
        #expect(result.status == 1)
        #expect(result.standardError == "syncd: flags: HTTP 404 Not Found from the upstream; kept the stored data\n")
        let status = try await workspace.run([
            "sql", "SELECT name, record_count FROM syncd_endpoints ORDER BY name", "--format", "csv",
        ])
        #expect(status.standardOutput == "name,record_count\r\nflags,0\r\nusers,5\r\n")
    }

    @Test("migrate creates the database and says so; a second run has nothing to do")
    func migrate() async throws {
        let workspace = try Workspace(toml: Self.toml("http://127.0.0.1:9"))
        defer { workspace.remove() }
        let first = try await workspace.run(["migrate"])
        #expect(first.status == 0)
        let applied = [
            "initial", "incremental_cursor", "resources", "kept_problems", "timestamp_width", "run_due_time",
            "schema_drift", "children", "parent_counts", "child_cursor_column", "schedule_reason",
        ]
        let lines = applied.enumerated().map { "applied migration \($0.offset + 1) \($0.element)\n" }
        #expect(first.standardOutput == lines.joined() + "\(workspace.path)/cache.db is at migration 11.\n")
        let second = try await workspace.run(["migrate"])
        #expect(second.standardOutput == "\(workspace.path)/cache.db is up to date (migration 11).\n")
    }

    @Test("demo syncs three passes, then serves the read API and prints commands that work, a 304 among them")
    func demo() async throws {
        var template = Array((NSTemporaryDirectory() + "syncd-demo-test-XXXXXX").utf8CString)
        let folder = try #require(
            template.withUnsafeMutableBufferPointer { buffer -> String? in
                guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
                return String(cString: base)
            })
        defer { try? FileManager.default.removeItem(atPath: folder) }  // best effort
        let outputPath = folder + "/demo.out"
        let arguments = ["demo", "--directory", folder, "--users", "40", "--listen", "127.0.0.1:0"]
        let result = try await DaemonProcess.run(arguments, directory: folder, outputPath: outputPath) {
            notify, signal in
            _ = await notify.waitFor("READY=1")
            // READY=1 follows the printed commands: they are all in the file now.
            let output = try String(contentsOfFile: outputPath, encoding: .utf8)
            #expect(output.contains("Pass 1"))
            #expect(output.contains("users: 200"))
            #expect(output.contains("(1 inserted"))
            #expect(output.contains("users: 304 not modified, 40 records, version 2"), "\(output)")
            let lines = output.split(separator: "\n").map(String.init)
            // The printed lines are shell syntax: run them as a person pasting them would.
            let query = try #require(lines.first { $0.contains(" query users --where city=") })
            let rerun = try await SyncdProcess.shell(query)
            #expect(rerun.status == 0)
            #expect(rerun.standardOutput.split(separator: "\n").count >= 3)
            let revalidate = try #require(lines.first { $0.contains("If-None-Match") })
            let notModified = try await SyncdProcess.shell(revalidate)
            #expect(notModified.standardOutput.hasPrefix("HTTP/1.1 304 Not Modified"), "\(revalidate)")
            let filtered = try #require(lines.first { $0.contains("/records?city=eq.") })
            let records = try await SyncdProcess.shell(filtered)
            let array = try JSONSerialization.jsonObject(with: Data(records.standardOutput.utf8)) as? [[String: Any]]
            #expect(array?.isEmpty == false, "\(records.standardOutput)")
            signal(SIGINT)
        }
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test("demo --once stops after the passes")
    func demoOnce() async throws {
        var template = Array((NSTemporaryDirectory() + "syncd-demo-test-XXXXXX").utf8CString)
        let folder = try #require(
            template.withUnsafeMutableBufferPointer { buffer -> String? in
                guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
                return String(cString: base)
            })
        defer { try? FileManager.default.removeItem(atPath: folder) }  // best effort
        let result = try await SyncdProcess.run(["demo", "--directory", folder, "--users", "10", "--once"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Pass 3"))
        #expect(!result.standardOutput.contains("curl"))
    }
}

/// What the CLI prints for people: progress on a terminal, notes, and never a secret.
@Suite("syncd CLI output")
struct CLIOutputTests {
    @Test("on a terminal, sync prints one progress line per endpoint: status, bytes, records, counts, version")
    func progressOnTerminal() async throws {
        let upstream = DemoUpstream(userCount: 12)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let workspace = try CLITests.Workspace(toml: CLITests.toml(server.baseURL))
        defer { workspace.remove() }
        // script(1) gives the command a pseudo-terminal, as an operator's shell would.
        let command = "\(SyncdProcess.binary.path) sync --config \(workspace.config)"
        let result = try await SyncdProcess.shell("script -qec '\(command)' /dev/null")
        try await server.shutdown()
        #expect(result.status == 0)
        let lines = result.standardOutput.split(whereSeparator: \.isNewline).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(
            lines.contains {
                $0.hasPrefix("users: 200, ")
                    && $0.hasSuffix("12 records (12 inserted, 0 updated, 0 deleted, 0 rejected) → version 1")
            })
        #expect(lines.contains { $0.hasPrefix("flags: 200, ") && $0.hasSuffix("document → version 1") })
    }

    @Test("a secret never reaches the output or the logs, even at trace level")
    func noSecretInLogs() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .json(Array("{}".utf8), status: 401) }
        let toml = CLITests.toml(server.baseURL).replacingOccurrences(
            of: "primary_key = [\"id\"]",
            with: "primary_key = [\"id\"]\nauth = { type = \"bearer\", token_env = \"USERS_TOKEN\" }")
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        let result = try await SyncdProcess.run(
            ["sync", "--config", workspace.config],
            environment: ["USERS_TOKEN": "hunter2-secret", "SYNCD_LOG_LEVEL": "trace"])
        try await server.shutdown()
        #expect(result.status == 1)
        #expect(
            result.standardError.contains("users: HTTP 401 Unauthorized: the upstream refused the bearer credentials"))
        #expect(!result.standardError.contains("hunter2") && !result.standardOutput.contains("hunter2"))
        for file in ["cache.db", "cache.db-wal"] {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: workspace.path + "/" + file))) ?? Data()
            #expect(bytes.range(of: Data("hunter2".utf8)) == nil, "\(file)")
        }
    }

    @Test("check-config notes a column that is still in the table but no longer configured")
    func removedColumn() async throws {
        let upstream = DemoUpstream(userCount: 3)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let toml = CLITests.toml(server.baseURL)
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        #expect(try await workspace.run(["sync"]).status == 0)
        try await server.shutdown()
        try toml.replacingOccurrences(of: "city = \"address.city\"\n", with: "").write(
            toFile: workspace.config, atomically: true, encoding: .utf8)
        let result = try await workspace.run(["check-config"])
        #expect(result.status == 0)
        #expect(
            result.standardError
                == "note: table \"users\" has a column \"city\" that is no longer configured; it is kept, and no longer filled\n"
        )
    }
}
