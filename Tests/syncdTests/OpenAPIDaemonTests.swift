import Foundation
import SampleUpstream
import Testing

/// `GET /openapi.json` from a live `syncd run`, checked by tools nobody here wrote: `openapi-spec-validator` reads the
/// document, and schemathesis generates requests from it — every route, valid and invalid parameters, methods the
/// document does not declare, with and without the token — and finds no 5xx and no answer the document does not
/// allow.
@Suite("syncd run: the OpenAPI document under schemathesis")
struct OpenAPIDaemonTests {
    /// Whether schemathesis and openapi-spec-validator are installed (`.ci/run` installs them with pip): found, not
    /// imported, since importing schemathesis takes seconds of a thread the other tests share.
    static let hasTools: Bool = {
        let check = try? ChildProcess.spawn(
            "/bin/sh", ["-c", "python3 -c \(pythonFinds("schemathesis", "openapi_spec_validator")) 2>/dev/null"])
        return check?.waitBlocking() == 0
    }()

    /// A Python one-liner, quoted for the shell, that exits 0 when every module is installed, without importing it.
    static func pythonFinds(_ modules: String...) -> String {
        let names = modules.map { "'\($0)'" }.joined(separator: ", ")
        return "\"import importlib.util as u, sys; sys.exit(0 if all(u.find_spec(m) for m in (\(names),)) else 1)\""
    }

    /// The seed of this run: `SYNCD_SCHEMATHESIS_SEED` when set (to replay a failure), else a fresh one, so that
    /// each run tries other requests. The test prints it.
    static let seed: UInt32 = {
        let text = ProcessInfo.processInfo.environment["SYNCD_SCHEMATHESIS_SEED"] ?? ""
        return UInt32(text) ?? UInt32.random(in: 1...UInt32.max)
    }()

    /// Examples per operation: `SYNCD_SCHEMATHESIS_EXAMPLES` when set (a longer local run), else 25.
    static let examples = Int(ProcessInfo.processInfo.environment["SYNCD_SCHEMATHESIS_EXAMPLES"] ?? "") ?? 25

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

    /// schemathesis's hooks (SCHEMATHESIS_HOOKS): a long poll that is valid waits up to 50 s for a change, and an
    /// event stream never ends, so a valid `wait` is sent as `0s` and `Accept: text/event-stream` not at all; an
    /// invalid `wait` still goes, and must be refused. ChangeStreamTests covers both for real.
    static let hooks = """
        import json
        import re

        import schemathesis

        with open("openapi.json") as document:
            WAIT = re.compile(json.load(document)["components"]["parameters"]["wait"]["schema"]["pattern"])


        @schemathesis.hook
        def before_call(context, case, kwargs):
            query = case.query if isinstance(case.query, dict) else {}
            if isinstance(query.get("wait"), str) and WAIT.fullmatch(query["wait"]):
                query["wait"] = "0s"
            headers = case.headers if isinstance(case.headers, dict) else {}
            for name in [name for name in headers if name.lower() == "accept"]:
                if "event-stream" in str(headers[name]).lower():
                    del headers[name]

        """

    @Test(
        "openapi-spec-validator accepts the document and schemathesis finds nothing, without and with a token",
        .enabled(if: hasTools || ProcessInfo.processInfo.environment["CI"] != nil),
        arguments: [false, true])
    func schemathesis(token: Bool) async throws {
        print("schemathesis (token: \(token)): seed \(Self.seed), \(Self.examples) examples per operation")
        let upstream = DemoUpstream(userCount: 12)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let toml = Self.toml(server.baseURL, token: token)
        #expect(toml.contains("required = true") && toml.contains("token_file") == token)
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        let secret = "st-7oken-\(UUID().uuidString.prefix(8))"
        try secret.write(toFile: workspace.path + "/token", atomically: true, encoding: .utf8)
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
            try Self.hooks.write(toFile: workspace.path + "/syncd_hooks.py", atomically: true, encoding: .utf8)
            // schemathesis's own entry point, whatever PATH holds: `st` is a script pip may put anywhere.
            let st = try await SyncdProcess.shell(
                "cd \(workspace.path) && SCHEMATHESIS_HOOKS=syncd_hooks python3 -c 'import sys; "
                    + "from schemathesis.cli import schemathesis; "
                    + "sys.argv[0] = \"st\"; sys.exit(schemathesis())' run "
                    + "http://\(address)/openapi.json \(authorization) --max-examples \(Self.examples) "
                    + "--seed \(Self.seed) --no-color --request-timeout 30")
            let output = st.standardOutput + st.standardError
            #expect(st.status == 0, "seed \(Self.seed) (SYNCD_SCHEMATHESIS_SEED replays it): \(output.suffix(6000))")
            // Enough requests that the run meant something: every operation, each with many cases.
            let generated = output.firstMatch(of: /([0-9]+) generated/).flatMap { Int($0.1) } ?? 0
            #expect(generated >= 200, "\(output.suffix(2000))")
            print("schemathesis (token: \(token), seed: \(Self.seed)): \(generated) cases generated")
            signal(SIGTERM)
        }
        try await server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
        // The token never reaches the daemon's log, whatever schemathesis sent.
        #expect(!result.standardError.contains(secret))
    }
}
