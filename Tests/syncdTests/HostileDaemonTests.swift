import Foundation
import NIOCore
import NIOPosix
import SampleUpstream
import Testing

/// `syncd run` against what a careless operator or a local attacker does: a rotated token, a reload that cannot
/// apply everything, a second daemon on a live socket, files that are not files, and readers that hold connections.
@Suite("syncd run: hostile operators and readers")
struct HostileDaemonTests {
    /// The HTTP status curl gets for `path`, with `token` as a bearer token when given.
    static func status(_ address: String, _ path: String, token: String? = nil) async throws -> String {
        let authorization = token.map { "-H 'Authorization: Bearer \($0)' " } ?? ""
        return try await SyncdProcess.shell(
            "curl -sS -o /dev/null -w '%{http_code}' \(authorization)http://\(address)\(path)"
        ).standardOutput
    }

    @Test("a rotated token file applies on SIGHUP: the old token is refused, the new one accepted")
    func tokenRotation() async throws {
        let upstream = DemoUpstream(userCount: 4)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let toml = CLITests.toml(server.baseURL).replacingOccurrences(
            of: "[server]\n", with: "[server]\ntoken_file = \"read.token\"\n")
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        try "first-token\n".write(toFile: workspace.path + "/read.token", atomically: true, encoding: .utf8)
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            let messages = await notify.waitFor("READY=1")
            let address = try #require(ReadAPIDaemonTests.address(in: messages), "\(messages)")
            #expect(try await Self.status(address, "/v1/endpoints", token: "first-token") == "200")

            try "second-token\n".write(toFile: workspace.path + "/read.token", atomically: true, encoding: .utf8)
            signal(SIGHUP)
            let reloaded = await notify.waitFor("STATUS=reloaded")
            #expect(reloaded.last == "READY=1\nSTATUS=reloaded: syncing 2 endpoints")
            #expect(try await Self.status(address, "/v1/endpoints", token: "first-token") == "401")
            #expect(try await Self.status(address, "/v1/endpoints/users/records/1", token: "first-token") == "401")
            #expect(try await Self.status(address, "/v1/endpoints", token: "second-token") == "200")

            // A token that cannot be read refuses the reload: the running one stays.
            try FileManager.default.removeItem(atPath: workspace.path + "/read.token")
            signal(SIGHUP)
            let refused = await notify.waitFor("STATUS=configuration not reloaded")
            #expect(refused.last?.contains("[server] token: secret file ") == true)
            #expect(try await Self.status(address, "/v1/endpoints", token: "second-token") == "200")
            signal(SIGTERM)
        }
        try await server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("first-token"))
        #expect(!result.standardError.contains("second-token"))
    }

    @Test("a reload names the [server] keys it cannot apply, in the log and in systemd's status, and keeps them")
    func reloadNamesWhatNeedsRestart() async throws {
        let upstream = DemoUpstream(userCount: 4)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let toml = CLITests.toml(server.baseURL)
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            let messages = await notify.waitFor("READY=1")
            let address = try #require(ReadAPIDaemonTests.address(in: messages), "\(messages)")
            let changed = toml.replacingOccurrences(
                of: "listen = \"127.0.0.1:0\"", with: "listen = \"127.0.0.1:0\"\nmax_rows = 5\nmax_connections = 8")
            try changed.write(toFile: workspace.config, atomically: true, encoding: .utf8)
            signal(SIGHUP)
            let reloaded = await notify.waitFor("STATUS=reloaded")
            #expect(
                reloaded.last
                    == "READY=1\nSTATUS=reloaded: syncing 2 endpoints; restart to apply [server] max_rows, max_connections"
            )
            #expect(try await Self.status(address, "/healthz") == "200")
            signal(SIGTERM)
        }
        try await server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardError.contains(
                #"Kept the running [server] settings: they change only on a restart keys="max_rows, max_connections""#))
    }

    @Test("a FIFO as token_file, body_file or an endpoint's secret file is refused at once, naming it")
    func fifoFiles() async throws {
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        let fifo = workspace.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opening any of these blocking would hang the command: nothing ever writes to the FIFO.
        let cases: [(stanza: String, command: String)] = [
            ("[server]\ntoken_file = \"pipe\"\n", "check-config"),
            (
                """
                [[endpoint]]
                name = "users"
                url = "http://127.0.0.1:9/users"
                method = "POST"
                body_file = "pipe"
                """, "check-config"
            ),
            (
                """
                [[endpoint]]
                name = "users"
                url = "http://127.0.0.1:9/users"
                auth = { type = "bearer", token_file = "pipe" }
                """, "sync"
            ),
        ]
        for (stanza, command) in cases {
            try stanza.write(toFile: workspace.config, atomically: true, encoding: .utf8)
            let result = try await workspace.run([command])
            #expect(result.status != 0, "\(stanza)")
            #expect(result.standardError.contains(fifo), "\(result.standardError)")
            #expect(result.standardError.contains("is a FIFO, not a regular file"), "\(result.standardError)")
        }
    }

    @Test("a unix: socket gets mode 0660 whatever the umask, and a second daemon refuses the live one's socket")
    func unixSocket() async throws {
        let upstream = DemoUpstream(userCount: 4)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let toml = CLITests.toml(server.baseURL).replacingOccurrences(
            of: "listen = \"127.0.0.1:0\"", with: "listen = \"unix:read.sock\"")
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        let socket = workspace.path + "/read.sock"
        let permissive = ["/bin/sh", "-c", "umask 000; exec \"$0\" \"$@\""]
        let result = try await DaemonProcess.run(
            ["run", "--config", workspace.config], directory: workspace.path, launcher: permissive
        ) { notify, signal in
            _ = await notify.waitFor("READY=1")
            let permissions = try FileManager.default.attributesOfItem(atPath: socket)[.posixPermissions] as? Int
            #expect(permissions == 0o660)
            let second = try await workspace.run(["run"])
            #expect(second.status == 1)
            #expect(
                second.standardError.contains(
                    "the read API cannot listen on unix:\(socket): another process is listening on it"),
                "\(second.standardError)")
            let answer = try await SyncdProcess.shell(
                "curl -sS -o /dev/null -w '%{http_code}' --unix-socket \(socket) http://localhost/healthz")
            #expect(answer.standardOutput == "200")
            signal(SIGTERM)
        }
        try await server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test("hundreds of half-sent requests leave the syncs their descriptors: a sync after them succeeds")
    func descriptorsKeptForSyncs() async throws {
        let upstream = DemoUpstream(userCount: 4)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let toml = CLITests.toml(server.baseURL)
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        // 300 descriptors in all: 272 kept for the syncs (4 at once), so the read API takes at most 28 connections.
        let limited = ["/usr/bin/prlimit", "--nofile=300:300", "--"]
        let result = try await DaemonProcess.run(
            ["run", "--config", workspace.config], directory: workspace.path, launcher: limited
        ) { notify, signal in
            let messages = await notify.waitFor("READY=1", "STATUS=users: 200")
            let address = try #require(ReadAPIDaemonTests.address(in: messages), "\(messages)")
            let port = try #require(Int(address.split(separator: ":").last ?? ""))
            // Each connection sends the start of a head and nothing more; beyond the cap they wait in the backlog.
            var channels: [any Channel] = []
            for _ in 0..<280 {
                let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connect(host: "127.0.0.1", port: port).get()
                try await channel.writeAndFlush(ByteBuffer(string: "GET /healthz HTTP/1.1\r\nHost: x")).get()
                channels.append(channel)
            }
            let more = toml + DaemonTests.moreEndpoint(server.baseURL)
            try more.write(toFile: workspace.config, atomically: true, encoding: .utf8)
            signal(SIGHUP)
            let synced = await notify.waitFor("STATUS=more: ")
            #expect(synced.last?.hasPrefix("STATUS=more: 200") == true, "\(synced)")
            for channel in channels { try? await channel.close() }
            signal(SIGTERM)
        }
        try await server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("Lowered the read API's max_connections"))
        #expect(!result.standardError.contains("Too many open files"))
    }
}
