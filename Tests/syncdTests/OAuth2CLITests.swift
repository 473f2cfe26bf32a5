import Foundation
import SampleUpstream
import Synchronization
import Testing

/// `auth = { type = "oauth2" }` from the built binary: a rotated refresh token that survives `kill -9` between the
/// token endpoint's answer and the next run, `syncd status` showing the token's times and never a secret, and
/// `check-config` refusing a token endpoint that is not https.
@Suite("syncd: OAuth2")
struct OAuth2CLITests {
    static func toml(_ upstream: OAuth2Upstream, tokenURL: String? = nil) -> String {
        """
        database = "cache.db"

        [[endpoint]]
        name = "users"
        url = "\(upstream.apiURL)"
        records = "$"
        primary_key = ["id"]
        retries = 0
        auth = { type = "oauth2", token_url = "\(tokenURL ?? upstream.tokenURL)", client_id = "\(upstream.clientID)", \
        client_secret_env = "CLIENT_SECRET", grant = "refresh_token", refresh_token_file = "refresh-token" }

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        name = "name"
        """
    }

    @Test("a rotated refresh token survives kill -9 between the token answer and the next run")
    func rotatedTokenSurvivesKill() async throws {
        let upstream = try await OAuth2Upstream.start(refreshToken: "rt-initial")
        let workspace = try CLITests.Workspace(toml: Self.toml(upstream))
        defer { workspace.remove() }
        try "rt-initial\n".write(toFile: workspace.path + "/refresh-token", atomically: true, encoding: .utf8)
        let environment = ["CLIENT_SECRET": upstream.clientSecret]
        // The API holds the request: syncd has its token (and has kept the rotated refresh token) when it is killed.
        upstream.with { behaviour, _ in behaviour.stallsAPI = true }
        let pid = Mutex<Int32>(0)
        async let killed = SyncdProcess.run(
            ["sync", "users", "--config", workspace.config], environment: environment
        ) { started in pid.withLock { $0 = started } }
        for await event in upstream.events where event == "api" { break }
        kill(pid.withLock { $0 }, SIGKILL)
        let killedRun = try await killed
        #expect(killedRun.status == SIGKILL)
        #expect(upstream.ledger.tokenBodies == ["grant_type=refresh_token&refresh_token=rt-initial"])

        // The provider refuses rt-initial now; the next run asks with the kept rt-1.
        upstream.with { behaviour, _ in behaviour.stallsAPI = false }
        let next = try await SyncdProcess.run(
            ["sync", "users", "--config", workspace.config], environment: environment)
        #expect(next.status == 0, "\(next.standardError)")
        #expect(upstream.ledger.tokenBodies.last == "grant_type=refresh_token&refresh_token=rt-1")

        let status = try await SyncdProcess.run(
            ["status", "--format", "json", "--config", workspace.config], environment: environment)
        #expect(status.status == 0)
        #expect(status.standardOutput.contains(#""token_renewed":"20"#))
        #expect(status.standardOutput.contains(#""token_expires":"20"#))
        let everything = [killedRun, next, status].map { $0.standardOutput + $0.standardError }.joined()
        let secrets = [upstream.clientSecret, "rt-initial", "rt-1", "rt-2", "at-1", "at-2"]
        for secret in secrets { #expect(!everything.contains(secret), "\(secret)") }
        let database = try Data(contentsOf: URL(fileURLWithPath: workspace.path + "/cache.db"))
        for secret in secrets { #expect(database.range(of: Data(secret.utf8)) == nil, "\(secret)") }
        try await upstream.shutdown()
    }

    @Test("syncd run: /v1/endpoints says when the token was renewed and expires; no secret in any answer or log")
    func daemon() async throws {
        let upstream = try await OAuth2Upstream.start(refreshToken: "rt-initial")
        let toml = Self.toml(upstream).replacingOccurrences(
            of: #"client_secret_env = "CLIENT_SECRET""#, with: #"client_secret_file = "client-secret""#)
        let workspace = try CLITests.Workspace(toml: toml + "\n\n[server]\nlisten = \"127.0.0.1:0\"\n")
        defer { workspace.remove() }
        try "rt-initial\n".write(toFile: workspace.path + "/refresh-token", atomically: true, encoding: .utf8)
        try upstream.clientSecret.write(toFile: workspace.path + "/client-secret", atomically: true, encoding: .utf8)
        let bodies = Mutex<[String: String]>([:])
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            let messages = await notify.waitFor("READY=1", "STATUS=users: 200")
            let address = try #require(ReadAPIDaemonTests.address(in: messages), "\(messages)")
            for path in ["/v1/endpoints", "/metrics", "/openapi.json", "/"] {
                let fetch = try await SyncdProcess.shell("curl -sS -f http://\(address)\(path)")
                #expect(fetch.status == 0, "\(path): \(fetch.standardError)")
                bodies.withLock { $0[path] = fetch.standardOutput }
            }
            signal(SIGTERM)
        }
        #expect(result.status == 0, "\(result.standardError)")
        let answers = bodies.withLock { $0 }
        let endpoints = answers["/v1/endpoints"] ?? ""
        #expect(endpoints.contains(#""token_renewed_at":"20"#) && endpoints.contains(#""token_expires_at":"20"#))
        #expect(answers["/openapi.json"]?.contains("token_expires_at") == true)
        let everything = answers.values.joined() + result.standardOutput + result.standardError
        for secret in [upstream.clientSecret, "rt-initial", "rt-1", "at-1"] {
            #expect(!everything.contains(secret), "\(secret)")
        }
        try await upstream.shutdown()
    }

    @Test("check-config refuses a token endpoint over plain http to another machine, at its line")
    func checkConfigRefusesHTTP() async throws {
        let upstream = try await OAuth2Upstream.start()
        let workspace = try CLITests.Workspace(
            toml: Self.toml(upstream, tokenURL: "http://auth.example.com/oauth/token"))
        defer { workspace.remove() }
        let result = try await workspace.run(["check-config"])
        #expect(result.status != 0)
        #expect(
            result.standardError.contains(
                #"syncd.toml:9: [[endpoint]] "users": auth: token_url must be an absolute https:// URL (http:// only "#
                    + "to a loopback host such as 127.0.0.1)"))
        try await upstream.shutdown()
    }
}
