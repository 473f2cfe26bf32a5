import Foundation
import SampleUpstream
import Testing

/// `syncd infer` on hostile input: standard input closed, a directory or endless.
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
}
