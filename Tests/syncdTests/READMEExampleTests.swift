import Foundation
import SampleUpstream
import Testing

/// Every fenced `toml` block of the README and of the guide (`docs/**/*.md`) passes `syncd check-config`, so the
/// examples stay true wherever they are.
///
/// A block is a whole file unless an HTML comment on the line before its fence says otherwise:
/// `<!-- readme-test: in an endpoint -->` checks it as the last keys of an endpoint, and
/// `<!-- readme-test: each line in an endpoint -->` checks each of its statements alone in one (alternatives), and
/// `<!-- readme-test: a whole file, synced against a loopback shape -->` is a whole file that
/// ``READMEPagingShapesTests`` also syncs.
@Suite("README examples")
struct READMEExampleTests {
    struct Block {
        /// The file, from the repository's root, and the line of the block's opening fence.
        var file: String
        var line: Int
        var marker: String?
        var text: String
    }

    /// An endpoint for fragments to complete: the columns the README's fragments name.
    static let endpoint = """
        [[endpoint]]
        name = "items"
        url = "https://example.com/api/items"
        records = "data"
        primary_key = ["id"]
        columns = { id = { path = "id", type = "integer" }, updated_at = { path = "updated_at", type = "timestamp" }, deleted = { path = "deleted", type = "boolean" } }

        """

    /// Pages whose `toml` blocks another test checks, and which: the configuration reference shows each key's example
    /// as a fragment, which that test completes into a whole file in the key's scope and parses.
    static let checkedElsewhere = [
        "docs/reference/configuration.md": "ConfigurationReferenceTests (each key's example, completed and parsed)"
    ]

    static func blocks() throws -> [Block] {
        try GuideFiles.all().filter { checkedElsewhere[$0.path] == nil }.flatMap { blocks(in: $0) }
    }

    static func blocks(in file: GuideFiles.File) -> [Block] {
        let lines = file.lines
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            guard lines[index] == "```toml" else {
                index += 1
                continue
            }
            let previous = index > 0 ? lines[index - 1] : ""
            let marker =
                previous.hasPrefix("<!-- readme-test: ")
                ? String(previous.dropFirst("<!-- readme-test: ".count).dropLast(" -->".count)) : nil
            let start = index + 1
            var end = start
            while end < lines.count, lines[end] != "```" { end += 1 }
            blocks.append(
                Block(
                    file: file.path, line: start, marker: marker,
                    text: lines[start..<end].joined(separator: "\n")))
            index = end + 1
        }
        return blocks
    }

    /// The files to check for one block.
    static func files(_ block: Block, scratch: String) throws -> [String] {
        switch block.marker {
        case nil, READMEPagingShapesTests.marker:
            // The example's token file is the operator's; check-config reads it, so one stands in for it.
            // So are the TLS examples' certificates: the test's own (PrivateCA, made in `scratch`).
            try "example-token\n".write(toFile: scratch + "/read.token", atomically: true, encoding: .utf8)
            var text = block.text.replacingOccurrences(of: "/etc/syncd/read.token", with: scratch + "/read.token")
            for (path, file) in [
                ("/etc/ssl/corp-ca.pem", "ca.pem"), ("/etc/syncd/client.pem", "client.pem"),
                ("/etc/syncd/client.key", "client.key"),
            ] {
                text = text.replacingOccurrences(of: path, with: scratch + "/" + file)
            }
            return [text]
        case "in an endpoint":
            return [endpoint + block.text + "\n"]
        case "each line in an endpoint":
            return block.text.components(separatedBy: "\n")
                .filter { !$0.isEmpty && !$0.hasPrefix(" ") && !$0.hasPrefix("#") }
                .map { endpoint + $0 + "\n" }
        default:
            Issue.record("\(block.file):\(block.line): unknown readme-test marker \"\(block.marker ?? "")\"")
            return []
        }
    }

    @Test("every toml block of the README and the guide passes check-config")
    func tomlBlocks() async throws {
        let blocks = try Self.blocks()
        #expect(blocks.count >= 4)
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        _ = try await PrivateCA.make(in: workspace.path)
        for block in blocks {
            for file in try Self.files(block, scratch: workspace.path) {
                try file.write(toFile: workspace.config, atomically: true, encoding: .utf8)
                let result = try await SyncdProcess.run(
                    ["check-config", "--config", workspace.config, "--database", workspace.path + "/none.db"])
                #expect(result.status == 0, "\(block.file):\(block.line): \(result.standardError)\n\(file)")
            }
        }
    }

    /// The `syncd infer` sessions of the README and the guide: each `$ cat FILE`, then `$ syncd infer FILE`, then
    /// exactly what it printed, up to the end of the block.
    @Test("the syncd infer sessions of the README and the guide print what they show")
    func inferSessions() async throws {
        var sessions = 0
        for guide in try GuideFiles.all() {
            let lines = guide.lines
            for start in lines.indices where lines[start].hasPrefix("$ cat ") && lines[start].hasSuffix(".json") {
                sessions += 1
                let name = String(lines[start].dropFirst("$ cat ".count))
                let at = "\(guide.path):\(start + 1)"
                let command = try #require(lines[start...].firstIndex(of: "$ syncd infer \(name)"), "\(at)")
                let end = try #require(lines[command...].firstIndex(of: "```"), "\(at)")
                let input = lines[(start + 1)..<command].joined(separator: "\n") + "\n"
                let printed = Array(lines[(command + 1)..<end])
                let summary = try #require(printed.first, "\(at)")
                #expect(summary.hasPrefix("syncd: "), "\(at)")

                let workspace = try CLITests.Workspace(toml: "")
                defer { workspace.remove() }
                let file = workspace.path + "/" + name
                try input.write(toFile: file, atomically: true, encoding: .utf8)
                let result = try await SyncdProcess.run(["infer", name], directory: workspace.path)
                #expect(result.status == 0, "\(at): \(result.standardError)")
                #expect(result.standardError == summary + "\n", "\(at)")
                let expected = printed.dropFirst().joined(separator: "\n") + "\n"
                let output = result.standardOutput.replacingOccurrences(
                    of: "file://" + file, with: "file:///tmp/demo/" + name)
                #expect(output == expected, "\(at)")
            }
        }
        #expect(sessions >= 2)
    }
}
