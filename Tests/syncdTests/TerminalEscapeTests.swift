import Foundation
import SampleUpstream
import Testing

/// Control characters an upstream puts in values reach the terminal escaped; JSON output and `get` stay exact.
@Suite("syncd: control characters in terminal output")
struct TerminalEscapeTests {
    /// A record whose key and values hold ESC sequences (OSC title, clear screen), BEL, C1 CSI, DEL and a tab.
    static let body =
        #"[{"id": "k\u001b[1m", "name": "\u001b]0;pwned\u0007\u001b[2J\u009b31mred\u007f", "city": "a\tb", "#
        + #""lat": "far"}]"#

    static let toml = """
        database = "cache.db"

        [[endpoint]]
        name = "users"
        url = "URL"
        records = "$"
        primary_key = ["id"]

        [endpoint.columns]
        id = "id"
        name = "name"
        city = "city"
        lat = { path = "lat", type = "real" }
        """

    /// Whether `text` holds a byte that drives a terminal: C0 but line breaks, DEL, or C1 (as UTF-8).
    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && scalar != "\n" && scalar != "\r") || (0x7F...0x9F).contains(scalar.value)
        }
    }

    @Test("sync on a terminal, query as table and csv, and errors escape them; json, ndjson and get keep the bytes")
    func escaped() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .json(Array(Self.body.utf8)) }
        let workspace = try CLITests.Workspace(
            toml: Self.toml.replacingOccurrences(of: "URL", with: server.baseURL + "/users"))
        defer { workspace.remove() }
        // `script` gives syncd a terminal, where sync prints a line per endpoint and its problems.
        let sync = try await SyncdProcess.shell(
            "script -qec '\(SyncdProcess.binary.path) sync --config \(workspace.config)' /dev/null")
        try await server.shutdown()
        #expect(sync.status == 0, "\(sync.standardOutput)")
        #expect(sync.standardOutput.contains(#"users[id=k\u001b[1m] > lat (real)"#), "\(sync.standardOutput)")
        // syncd's own redraw of its live lines (cursor up, erase below) is the only sequence on the screen.
        let upstreamText = sync.standardOutput.replacing(/\x{1B}\[[0-9]+A\x{1B}\[J/, with: "")
        #expect(!Self.hasControl(upstreamText), "\(sync.standardOutput)")

        for format in ["table", "csv"] {
            let query = try await workspace.run(["query", "users", "--format", format])
            #expect(query.status == 0)
            #expect(query.standardOutput.contains(#"\u001b]0;pwned\u0007\u001b[2J"#), "\(format)")
            #expect(!Self.hasControl(query.standardOutput), "\(format): \(query.standardOutput)")
        }
        let csv = try await workspace.run(["query", "users", "--format", "csv"])
        #expect(csv.standardOutput.contains(#"\u001b]0;pwned\u0007\u001b[2J\u009b31mred\u007f,a\u0009b,"#))

        let ndjson = try await workspace.run(["query", "users", "--format", "ndjson"])
        let record = String(Self.body.dropFirst().dropLast())
        #expect(ndjson.standardOutput == record + "\n")
        let json = try await workspace.run(["query", "users", "--format", "json"])
        #expect(json.standardOutput == "[\n  " + record + "\n]\n")
        let get = try await workspace.run(["get", "users", "k\u{1B}[1m"])
        #expect(get.status == 0 && get.standardOutput == record + "\n")

        let missing = try await workspace.run(["get", "users", "x\u{1B}]0;t\u{07}"])
        #expect(missing.status == 4)
        #expect(missing.standardError == #"syncd: users has no record with key x\u001b]0;t\u0007"# + "\n")
    }
}
