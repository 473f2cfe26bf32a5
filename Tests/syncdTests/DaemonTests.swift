import Foundation
import SampleUpstream
import Synchronization
import Testing

/// `syncd run` as systemd runs it: events come through a NOTIFY_SOCKET the test listens on.
@Suite("syncd run")
struct DaemonTests {
    @Test("the daemon syncs, survives a SIGHUP with a broken config, applies a good one, and exits 0 on SIGTERM")
    func lifecycle() async throws {
        let upstream = DemoUpstream(userCount: 8)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let toml = CLITests.toml(server.baseURL)
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            let startup = await notify.waitFor("READY=1")
            #expect(startup.last?.hasPrefix("READY=1\nSTATUS=syncing 2 endpoints; read API on 127.0.0.1:") == true)
            let synced = await notify.waitFor("STATUS=users: 200", "STATUS=flags: 200")
            #expect(synced.contains { $0.hasPrefix("STATUS=users: 200") && $0.hasSuffix("→ version 1") })

            try (toml + "\nnot_a_key = 1\n").write(toFile: workspace.config, atomically: true, encoding: .utf8)
            signal(SIGHUP)
            let refused = await notify.waitFor("READY=1")
            #expect(refused.first?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true)
            #expect(refused.last?.contains("STATUS=configuration not reloaded: \(workspace.config):") == true)
            #expect(refused.last?.contains("unknown key \"not_a_key\"") == true)

            let more = toml + Self.moreEndpoint(server.baseURL)
            try more.write(toFile: workspace.config, atomically: true, encoding: .utf8)
            signal(SIGHUP)
            let reloaded = await notify.waitFor("STATUS=more: 200", "STATUS=reloaded")
            #expect(reloaded.contains("READY=1\nSTATUS=reloaded: syncing 3 endpoints"))

            signal(SIGTERM)
            let stopping = await notify.waitFor("STOPPING=1")
            #expect(stopping.last == "STOPPING=1")
        }
        try await server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("info syncd: Stopped"))
        let count = try await workspace.run(["sql", "SELECT count(*) AS n FROM more", "--format", "csv"])
        #expect(count.standardOutput == "n\r\n8\r\n")
    }
}

extension DaemonTests {
    /// A third endpoint for a reload to add: its `STATUS=more: …` says the reload applied and its sync ran.
    static func moreEndpoint(_ baseURL: String) -> String {
        """

        [[endpoint]]
        name = "more"
        url = "\(baseURL)/users"
        records = "$"
        primary_key = ["id"]

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        """
    }
}

/// SIGTERM while a sync is in flight: the sync commits (or rolls back) as a whole, and the daemon exits 0.
@Suite("syncd run: stopping mid-sync")
struct DaemonStopTests {
    @Test("SIGTERM during a sync lets it finish and commit, then exits 0 with a consistent database")
    func sigtermMidSync() async throws {
        let upstream = try await HeldUpstream.start()
        // Neither the held request nor the stop's grace runs out however slowly a loaded machine runs this test: the
        // release comes from this process, after it has seen STOPPING=1.
        let workspace = try CLITests.Workspace(toml: upstream.toml(stopGrace: "10m"))
        defer { workspace.remove() }
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            for await _ in upstream.requested { break }
            signal(SIGTERM)
            let stopping = await notify.waitFor("STOPPING=1")
            #expect(stopping.last == "STOPPING=1")
            upstream.release.yield()
        }
        try await upstream.server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await Self.state(workspace) == "version,record_count,n,outcome,error\r\n1,50,50,changed,\r\n")
    }

    @Test("with stop_grace = \"0s\", SIGTERM rolls the sync in flight back at once: nothing stored, the run says why")
    func sigtermWithoutGrace() async throws {
        let upstream = try await HeldUpstream.start()
        let workspace = try CLITests.Workspace(toml: upstream.toml(stopGrace: "0s"))
        defer { workspace.remove() }
        // The request is never answered while the daemon runs: it can only stop by cancelling the sync.
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            for await _ in upstream.requested { break }
            signal(SIGTERM)
            _ = await notify.waitFor("STOPPING=1")
        }
        upstream.release.finish()
        try await upstream.server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            try await Self.state(workspace)
                == "version,record_count,n,outcome,error\r\n0,0,0,failed,"
                + "users: stopped before the sync finished; kept the stored data\r\n")
    }

    /// The users endpoint's version, record count, rows and last run, as CSV.
    static func state(_ workspace: CLITests.Workspace) async throws -> String {
        try await workspace.run([
            "sql",
            "SELECT e.version, e.record_count, (SELECT count(*) FROM users) AS n, r.outcome, r.error "
                + "FROM syncd_endpoints e JOIN syncd_runs r ON r.endpoint = e.name WHERE e.name = 'users'",
            "--format", "csv",
        ]).standardOutput
    }

    /// An upstream whose first `/users` request is held until ``release`` yields (or finishes).
    struct HeldUpstream {
        let server: LoopbackHTTPServer
        /// Yields when the held request has arrived.
        let requested: AsyncStream<Void>
        let release: AsyncStream<Void>.Continuation

        static func start() async throws -> HeldUpstream {
            let (requested, requestArrived) = AsyncStream.makeStream(of: Void.self)
            let (released, release) = AsyncStream.makeStream(of: Void.self)
            let releasedOnce = Mutex<AsyncStream<Void>.Iterator?>(released.makeAsyncIterator())
            let server = try await LoopbackHTTPServer.start { request in
                guard request.path == "/users" else { return .json(Array("{}".utf8)) }
                requestArrived.yield()
                if var iterator = releasedOnce.withLock({ state -> AsyncStream<Void>.Iterator? in
                    defer { state = nil }
                    return state
                }) {
                    _ = await iterator.next()
                }
                return .json(SampleUsers.json(count: 50))
            }
            return HeldUpstream(server: server, requested: requested, release: release)
        }

        /// The CLI tests' configuration against this upstream: flags hourly, users held for up to 10 minutes.
        func toml(stopGrace: String) -> String {
            let toml = CLITests.toml(server.baseURL)
                .replacingOccurrences(
                    of: "\n[[endpoint]]\nname = \"flags\"", with: "\n[[endpoint]]\nname = \"flags\"\ninterval = \"1h\""
                )
                .replacingOccurrences(
                    of: "primary_key = [\"id\"]\n", with: "primary_key = [\"id\"]\ntimeout = \"10m\"\n"
                )
                .replacingOccurrences(of: "\n[server]", with: "\n[defaults]\nstop_grace = \"\(stopGrace)\"\n\n[server]")
            precondition(toml.contains("timeout = \"10m\"") && toml.contains("stop_grace"))
            return toml
        }
    }
}

/// `syncd run` on a workspace, with a NotifyListener standing in for systemd's NOTIFY_SOCKET.
enum DaemonProcess {
    /// Starts the daemon, gives `body` its messages and a way to signal it, and returns its result once it exits:
    /// `body` must make it exit. If `body` throws, the daemon is killed so that nothing waits for it.
    static func run(
        _ workspace: CLITests.Workspace, _ body: (NotifyListener, _ signal: (Int32) -> Void) async throws -> Void
    ) async throws -> SyncdProcess.Result {
        try await run(["run", "--config", workspace.config], directory: workspace.path, body)
    }

    /// Runs `syncd ARGUMENTS…` with a NOTIFY_SOCKET in `directory`, its standard output in `outputPath` meanwhile.
    ///
    /// - Parameter launcher: A command that runs the rest and becomes `syncd` (`prlimit --nofile=…`, or
    ///   `/bin/sh -c 'umask 000; exec "$0" "$@"'`); the signals go to its process.
    static func run(
        _ arguments: [String], directory: String, outputPath: String? = nil, launcher: [String] = [],
        _ body: (NotifyListener, _ signal: (Int32) -> Void) async throws -> Void
    ) async throws -> SyncdProcess.Result {
        let notify = try NotifyListener(directory: directory)
        let executable = launcher.first.map(URL.init(fileURLWithPath:)) ?? SyncdProcess.binary
        let commandLine = launcher.isEmpty ? arguments : launcher.dropFirst() + [SyncdProcess.binary.path] + arguments
        // Started before the body waits: the listener's safety net then counts from a running daemon.
        let daemon = try SyncdProcess.launch(
            executable: executable, commandLine, environment: ["NOTIFY_SOCKET": notify.path], outputPath: outputPath)
        do {
            try await body(notify) { kill(daemon.pid, $0) }
        } catch {
            kill(daemon.pid, SIGKILL)
            _ = try? await daemon.result()  // reaped; the body's error is the one to report
            throw error
        }
        return try await daemon.result()
    }
}
