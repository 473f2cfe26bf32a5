import Foundation
import Testing

/// `syncd check-config` reads the read API's token as `syncd run` does at start, so a configuration `run` refuses
/// (exit 78) is not called valid.
@Suite("syncd check-config and the [server] token")
struct CheckConfigServerTokenTests {
    @Test(
        "a token that cannot be read is refused by check-config and run alike, exit 78, naming the line and key",
        arguments: [
            (#"token_file = "missing-token""#, "token_file: secret file %DIR%/missing-token: no such file"),
            (
                #"token_credential = "missing""#,
                "token_credential: credential \"missing\": no such file in $CREDENTIALS_DIRECTORY"
            ),
        ])
    func unreadableToken(_ line: String, _ message: String) async throws {
        let toml = CLITests.toml("http://127.0.0.1:9").replacingOccurrences(
            of: "listen = \"127.0.0.1:0\"", with: "listen = \"127.0.0.1:0\"\n\(line)")
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        let environment = ["CREDENTIALS_DIRECTORY": workspace.path]
        let expected = message.replacingOccurrences(of: "%DIR%", with: workspace.path)

        let check = try await SyncdProcess.run(
            ["check-config", "--config", workspace.config], environment: environment)
        let run = try await SyncdProcess.run(["run", "--config", workspace.config], environment: environment)

        #expect(check.status == 78)
        #expect(check.standardError == "syncd: \(workspace.config):5: [server]: \(expected)\n")
        #expect(check.standardOutput.isEmpty)
        #expect(run.status == 78)
    }
}
