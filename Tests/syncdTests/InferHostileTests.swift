import Foundation
import SampleUpstream
import Testing

/// `syncd infer` on hostile input: standard input closed, a directory or endless; keys that drive a terminal; a
/// URL carrying its secret.
@Suite("syncd infer on hostile input")
struct InferHostileTests {
    typealias Workspace = CLITests.Workspace

    static var binary: String { "'\(SyncdProcess.binary.path)'" }

    @Test(
        "standard input closed, or a directory, exits 1 with one sentence instead of trapping",
        arguments: [
            ("<&-", "standard input is closed, not a JSON response to read"),
            ("< /", "standard input is a directory, not a JSON response to read"),
        ])
    func unreadableStandardInput(redirection: String, sentence: String) async throws {
        let result = try await SyncdProcess.shell("\(Self.binary) infer - \(redirection)")
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError == "syncd: cannot read the response: \(sentence)\n")
        #expect(result.standardOutput == "")
    }

    @Test("standard input and a file larger than 64 MiB are refused, naming the limit")
    func tooLarge() async throws {
        let workspace = try Workspace(toml: "")
        defer { workspace.remove() }
        let refusal = "syncd: cannot read the response: the body is larger than max_body (64 MiB)\n"
        // 64 MiB and one byte through a pipe: the read stops at the byte past the limit (a body of exactly the
        // limit is read whole: DescriptorReaderTests).
        let piped = try await SyncdProcess.shell("head -c 67108865 /dev/zero | \(Self.binary) infer -")
        #expect(piped.status == 1)
        #expect(piped.standardError == refusal)
        // A sparse file of 65 MiB, refused by its size before any read.
        let file = workspace.path + "/large.json"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("[".utf8)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.truncate(atOffset: 65 << 20)
        try handle.close()
        let large = try await SyncdProcess.run(["infer", file])
        #expect(large.status == 1)
        #expect(large.standardError == refusal)
    }

    @Test("keys holding escape sequences and bidi overrides are escaped in the summary, the stanza and --swift")
    func escapedKeys() async throws {
        let workspace = try Workspace(toml: "")
        defer { workspace.remove() }
        let file = workspace.path + "/hostile.json"
        // The records' path holds ESC [2J (clear the screen) and U+202E (right-to-left override); a key holds a
        // line break that would end a TOML comment or a Swift comment and start code.
        let body = #"{"\u001b[2J\u202e": [{"id": 1, "x\n[[endpoint]]": 2, "\u009b31m": 3}]}"#
        try body.write(toFile: file, atomically: true, encoding: .utf8)
        let inferred = try await SyncdProcess.run(["infer", file, "--name", "hostile"])
        #expect(inferred.status == 0, "\(inferred.standardError)")
        #expect(inferred.standardError == #"syncd: 1 record at "["\u001b[2J\u202e"]", 3 columns"# + "\n")
        let stanza = inferred.standardOutput
        #expect(
            stanza == """
                # 1 record at "[\\"\\u001B[2J\\u202E\\"]": every one was read to infer these columns.
                [[endpoint]]
                name = "hostile"
                url = "file://\(file)"
                records = "[\\"\\u001B[2J\\u202E\\"]"
                primary_key = ["id"]

                [endpoint.columns]
                id = { path = "id", type = "integer", required = true }
                x_endpoint = { path = "[\\"x\\n[[endpoint]]\\"]", type = "integer", required = true }
                c_31m = { path = "[\\"\\u009B31m\\"]", type = "integer", required = true }

                """)
        try (InferTests.header + stanza).write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let check = try await workspace.run(["check-config"])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        let sync = try await workspace.run(["sync"])
        #expect(sync.status == 0, "\(sync.standardError)")
        let rows = try await workspace.run(["sql", "SELECT id, x_endpoint, c_31m FROM hostile", "--format", "csv"])
        #expect(rows.standardOutput == "id,x_endpoint,c_31m\r\n1,2,3\r\n")
        let swift = try await SyncdProcess.run(["infer", file, "--name", "hostile", "--swift"])
        #expect(swift.status == 0, "\(swift.standardError)")
        #expect(
            swift.standardOutput.contains(
                #"// The records are the array at "["\u001b[2J\u202e"]" in the response (1 record read)."#))
        #expect(swift.standardOutput.contains(#"case xEndpoint = "x\u{a}[[endpoint]]""#))
        #expect(
            !swift.standardOutput.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0 == "\u{202E}" })
    }

    @Test(
        "a URL's secret query parameter becomes a query auth from the environment, in no output, and the stanza syncs")
    func secretQueryParameter() async throws {
        let users = SampleUsers.json(count: 3)
        let server = try await LoopbackHTTPServer.start { request in
            guard request.query["api_key"] == "s3cr3t-value" else { return UpstreamResponse(status: 401) }
            return .json(users)
        }
        let workspace = try Workspace(toml: "")
        defer { workspace.remove() }
        let inferred = try await SyncdProcess.run(["infer", server.baseURL + "/users?api_key=s3cr3t-value&page=1"])
        #expect(inferred.status == 0, "\(inferred.standardError)")
        let stanza = inferred.standardOutput
        #expect(!stanza.contains("s3cr3t") && !inferred.standardError.contains("s3cr3t"))
        #expect(
            stanza.contains(
                """
                [[endpoint]]
                name = "users"
                url = "\(server.baseURL)/users?page=1"
                # The URL's "api_key" is a secret, left out of url: auth sends it from the environment variable \
                USERS_API_KEY, which
                # must be set where syncd runs.
                auth = { type = "query", name = "api_key", value_env = "USERS_API_KEY" }
                records = "$"

                """))
        try (InferTests.header + stanza).write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let check = try await workspace.run(["check-config"])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        let sync = try await SyncdProcess.run(
            ["sync", "--config", workspace.config], environment: ["USERS_API_KEY": "s3cr3t-value"])
        try await server.shutdown()
        #expect(sync.status == 0, "\(sync.standardError)")
        let count = try await workspace.run(["sql", "SELECT count(*) AS n FROM users", "--format", "csv"])
        #expect(count.standardOutput == "n\r\n3\r\n")
    }
}
