import Foundation
import SampleUpstream
import Testing

/// TLS is verified: a server whose certificate no trust root vouches for is refused.
@Suite("syncd TLS")
struct TLSTests {
    /// `openssl s_server` on 127.0.0.1 with a fresh self-signed certificate; its port comes from its first line.
    final class SelfSignedServer: Sendable {
        let process: ChildProcess
        let port: Int

        /// Starts the server on a thread of its own: making the key and reading openssl's first lines block, and a
        /// test must not hold one of the cooperative pool's threads (two on two cores) while they do.
        static func start(directory: String) async throws -> SelfSignedServer {
            try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(with: Result { try SelfSignedServer(directory: directory) })
                }
            }
        }

        private init(directory: String) throws {
            let request = try ChildProcess.spawn(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory + "/key.pem", "-out",
                    directory + "/cert.pem", "-days", "1", "-subj", "/CN=127.0.0.1",
                ])
            _ = request.waitBlocking()  // a local process that needs nothing from this one
            process = try ChildProcess.spawn(
                "/usr/bin/openssl",
                [
                    "s_server", "-accept", "127.0.0.1:0", "-cert", directory + "/cert.pem", "-key",
                    directory + "/key.pem", "-www",
                ],
                standardOutput: .pipe)
            // openssl prints "ACCEPT 127.0.0.1:PORT" before it accepts anything (after a line about DH parameters).
            var port = 0
            var line = Data()
            while port == 0 {
                let byte = process.readOutput(upTo: 1)
                if byte.isEmpty { break }
                if byte.first == UInt8(ascii: "\n") {
                    let text = String(decoding: line, as: UTF8.self)
                    if text.hasPrefix("ACCEPT ") { port = Int(text.split(separator: ":").last ?? "") ?? 0 }
                    line = Data()
                } else {
                    line.append(contentsOf: byte)
                }
            }
            self.port = port
        }

        func stop() {
            process.send(SIGKILL)
            _ = process.waitBlocking()
        }
    }

    @Test("a self-signed certificate fails the sync with one sentence, and stores nothing")
    func selfSigned() async throws {
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        let server = try await SelfSignedServer.start(directory: workspace.path)
        defer { server.stop() }
        #expect(server.port > 0)
        try CLITests.toml("https://127.0.0.1:\(server.port)").write(
            toFile: workspace.config, atomically: true, encoding: .utf8)
        let result = try await workspace.run(["sync", "users"])
        #expect(result.status == 1)
        #expect(
            result.standardError
                == "syncd: users: the TLS handshake failed: the server's certificate is not trusted or not for this host; kept the stored data\n"
        )
    }
}
