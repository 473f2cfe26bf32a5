import Foundation
import SampleUpstream
import Testing

/// A password or key written in `url` is never printed by a command, logged, or stored in the database file.
@Suite("syncd: secrets in URLs")
struct URLRedactionCLITests {
    static let secrets = ["pw-s3cr3t1", "s3cr3t2", "s3cr3t3"]

    @Test("check-config, sync, status and sql show REDACTED; the logs and the database file hold no secret")
    func redacted() async throws {
        let upstream = DemoUpstream(userCount: 3)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let base = server.baseURL.replacingOccurrences(of: "http://", with: "http://ann:pw-s3cr3t1@")
        let workspace = try CLITests.Workspace(
            toml: CLITests.toml(base).replacingOccurrences(
                of: "/users\"", with: "/users?api_key=s3cr3t2&X-Amz-Signature=s3cr3t3\""))
        defer { workspace.remove() }
        var outputs: [String] = []
        let sync = try await SyncdProcess.run(
            ["sync", "--config", workspace.config], environment: ["SYNCD_LOG_LEVEL": "trace"])
        try await server.shutdown()
        #expect(sync.status == 0, "\(sync.standardError)")
        #expect(sync.standardError.contains("users"), "trace logs name the endpoint")
        outputs += [sync.standardOutput, sync.standardError]
        let check = try await workspace.run(["check-config"])
        #expect(check.standardOutput.contains("http://REDACTED@127.0.0.1:"))
        #expect(check.standardOutput.contains("/users?api_key=REDACTED&X-Amz-Signature=REDACTED\n"))
        outputs += [check.standardOutput, check.standardError]
        for command in [["status"], ["status", "--format", "json"], ["sql", "SELECT * FROM syncd_endpoints"]] {
            let result = try await workspace.run(command)
            #expect(result.status == 0, "\(command): \(result.standardError)")
            outputs += [result.standardOutput, result.standardError]
        }
        for (index, output) in outputs.enumerated() {
            for secret in Self.secrets { #expect(!output.contains(secret), "output \(index)") }
        }
        for file in try FileManager.default.contentsOfDirectory(atPath: workspace.path) where file.hasPrefix("cache.db")
        {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: workspace.path + "/" + file))
            for secret in Self.secrets { #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(file)") }
        }
    }
}
