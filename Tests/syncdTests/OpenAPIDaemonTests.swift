import Foundation
import SampleUpstream
import Testing

/// `GET /openapi.json` from a live `syncd run`, checked by tools nobody here wrote: `openapi-spec-validator` reads the
/// document, and schemathesis generates requests from it — every route, valid and invalid parameters, methods the
/// document does not declare, with and without the token — and finds no 5xx and no answer the document does not
/// allow.
@Suite("syncd run: the OpenAPI document under schemathesis")
struct OpenAPIDaemonTests {
    /// Whether schemathesis and openapi-spec-validator can be imported (`.ci/run` installs them with pip).
    static let hasTools: Bool = {
        let check = try? ChildProcess.spawn(
            "/bin/sh", ["-c", "python3 -c 'import schemathesis, openapi_spec_validator' 2>/dev/null"])
        return check?.waitBlocking() == 0
    }()

    /// What schemathesis is told beyond the document, with the reason for each line.
    static let configuration = """
        # A position in `after` must come from the `next` link of a walk with the same `since`: a rule between two
        # parameters that no schema states, so a well-formed `after` may be answered 400.
        [[operations]]
        include-path-regex = "/changes$"
        checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "404"]
        """

    /// The demo's users (CLITests.toml) with a required column too, and its flags document; with `token`, the API
    /// needs the token in the workspace's `token` file.
    static func toml(_ baseURL: String, token: Bool) -> String {
        var toml = CLITests.toml(baseURL).replacingOccurrences(
            of: "name = \"name\"\n", with: "name = \"name\"\nemail = { path = \"email\", required = true }\n")
        if token {
            toml = toml.replacingOccurrences(
                of: "listen = \"127.0.0.1:0\"\n", with: "listen = \"127.0.0.1:0\"\ntoken_file = \"token\"\n")
        }
        return toml
    }

    @Test(
        "openapi-spec-validator accepts the document and schemathesis finds nothing, without and with a token",
        .enabled(if: hasTools || ProcessInfo.processInfo.environment["CI"] != nil),
        arguments: [false, true])
    func schemathesis(token: Bool) async throws {
        let upstream = DemoUpstream(userCount: 12)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let toml = Self.toml(server.baseURL, token: token)
        #expect(toml.contains("required = true") && toml.contains("token_file") == token)
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        let secret = "st-7oken-\(UUID().uuidString.prefix(8))"
        try secret.write(toFile: workspace.path + "/token", atomically: true, encoding: .utf8)
        try Self.configuration.write(toFile: workspace.path + "/schemathesis.toml", atomically: true, encoding: .utf8)
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            let messages = await notify.waitFor("READY=1", "STATUS=users: 200", "STATUS=flags: 200")
            let address = try #require(ReadAPIDaemonTests.address(in: messages), "\(messages)")
            let authorization = token ? "-H 'Authorization: Bearer \(secret)'" : ""
            let fetch = try await SyncdProcess.shell(
                "curl -sS -f \(authorization) -o \(workspace.path)/openapi.json http://\(address)/openapi.json")
            #expect(fetch.status == 0, "\(fetch.standardError)")
            let validator = try await SyncdProcess.shell(
                "python3 -m openapi_spec_validator \(workspace.path)/openapi.json")
            #expect(validator.status == 0, "\(validator.standardOutput)\(validator.standardError)")
            // schemathesis's own entry point, whatever PATH holds: `st` is a script pip may put anywhere.
            let st = try await SyncdProcess.shell(
                "cd \(workspace.path) && python3 -c 'import sys; from schemathesis.cli import schemathesis; "
                    + "sys.argv[0] = \"st\"; sys.exit(schemathesis())' --config-file schemathesis.toml run "
                    + "http://\(address)/openapi.json \(authorization) --max-examples 25 --seed 20261128 --no-color "
                    + "--request-timeout 30")
            let output = st.standardOutput + st.standardError
            #expect(st.status == 0, "\(output.suffix(6000))")
            // Enough requests that the run meant something: every operation, each with many cases.
            let generated = output.firstMatch(of: /([0-9]+) generated/).flatMap { Int($0.1) } ?? 0
            #expect(generated >= 200, "\(output.suffix(2000))")
            print("schemathesis (token: \(token)): \(generated) cases generated")
            signal(SIGTERM)
        }
        try await server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
        // The token never reaches the daemon's log, whatever schemathesis sent.
        #expect(!result.standardError.contains(secret))
    }
}
