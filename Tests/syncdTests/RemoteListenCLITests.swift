import Foundation
import Testing

/// A read API reachable from other machines without a token is refused by every command, naming line and key.
@Suite("syncd: remote listen without a token")
struct RemoteListenCLITests {
    @Test("listen = \"0.0.0.0:8787\" without a token is refused by check-config and every command, exit 78")
    func refused() async throws {
        let workspace = try CLITests.Workspace(
            toml: CLITests.toml("http://127.0.0.1:9").replacingOccurrences(
                of: "listen = \"127.0.0.1:0\"", with: "listen = \"0.0.0.0:8787\""))
        defer { workspace.remove() }
        for command in [["check-config"], ["sync"], ["status"], ["run"]] {
            let result = try await workspace.run(command)
            #expect(result.status == 78, "\(command)")
            #expect(
                result.standardError
                    == "syncd: \(workspace.config):4: [server]: listen 0.0.0.0:8787 is reachable from other machines "
                    + "and no token is set: set token_file or token_credential, or allow_remote = true\n",
                "\(command)")
        }
    }
}
