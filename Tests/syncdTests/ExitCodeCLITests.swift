import Foundation
import Testing

/// The exit codes `syncd --help` documents: a read that names something the configuration does not have is a
/// usage error (64), not a failure (1).
@Suite("syncd exit codes for wrong reads")
struct ExitCodeCLITests {
    @Test("a wrong column, a document queried as a collection and a malformed key exit 64 with one sentence")
    func usageErrors() async throws {
        try await CLITests.withSyncedWorkspace { workspace, _ in
            let cases: [([String], String)] = [
                (
                    ["query", "users", "--where", "nope=1"],
                    #""nope" is not a configured column of "users" (its columns: id, name, city, lat)"#
                ),
                (
                    ["query", "users", "--order", "nope.desc"],
                    #""nope" is not a configured column of "users" (its columns: id, name, city, lat)"#
                ),
                (["query", "flags"], #""flags" is a document endpoint: it has no records"#),
                (["get", "users", "abc"], #""abc" is not a key of "users": expected an integer for id"#),
            ]
            for (arguments, message) in cases {
                let result = try await workspace.run(arguments)
                #expect(result.status == 64, "\(arguments)")
                #expect(result.standardError == "syncd: \(message)\n", "\(arguments)")
                #expect(result.standardOutput.isEmpty, "\(arguments)")
            }
        }
    }
}
