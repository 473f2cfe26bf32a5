import Foundation
import SampleUpstream
import Testing

/// The binary behind a proxy and with a private CA: `HTTPS_PROXY` from its environment, `ca_file` and the client
/// certificate from syncd.toml, and `check-config` checking them offline.
@Suite("syncd proxies and TLS")
struct ProxyTLSCLITests {
    static func toml(_ url: String, extra: String) -> String {
        """
        database = "cache.db"

        [defaults]
        retries = 0
        \(extra)

        [[endpoint]]
        name = "users"
        url = "\(url)"
        records = "$"
        primary_key = ["id"]

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        """
    }

    @Test("sync reaches a private-CA mTLS upstream through HTTPS_PROXY, and no secret reaches the output")
    func throughProxy() async throws {
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        let ca = try await PrivateCA.make(in: workspace.path)
        let authorization = "Basic " + Data("syncd:proxy-secret".utf8).base64EncodedString()
        let proxy = try await LoopbackConnectProxy.start(requiring: authorization)
        let server = try await LoopbackHTTPServer.start(tls: try ca.serverContext(requiringClientCertificate: true)) {
            _ in .json(Array(#"[{"id": 1}, {"id": 2}]"#.utf8))
        }
        let extra = """
            ca_file = "ca.pem"
            client_certificate_file = "client.pem"
            client_key_file = "client.key"
            """
        try Self.toml(server.baseURL + "/users", extra: extra).write(
            toFile: workspace.config, atomically: true, encoding: .utf8)
        let result = try await SyncdProcess.run(
            ["sync", "--config", workspace.config],
            environment: [
                "HTTPS_PROXY": "http://syncd:proxy-secret@127.0.0.1:\(proxy.port)", "SYNCD_LOG_LEVEL": "trace",
            ])
        try await server.shutdown()
        try await proxy.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Set(proxy.connects.map(\.target)) == ["127.0.0.1:\(server.port)"])
        #expect(server.requestCount == 1)
        #expect(!(result.standardOutput + result.standardError).contains("proxy-secret"))
    }

    @Test("sync against an upstream that requires a client certificate, without one, fails in one sentence")
    func clientCertificateRefused() async throws {
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        let ca = try await PrivateCA.make(in: workspace.path)
        let server = try await LoopbackHTTPServer.start(tls: try ca.serverContext(requiringClientCertificate: true)) {
            _ in .json(Array("[]".utf8))
        }
        try Self.toml(server.baseURL + "/users", extra: "ca_file = \"ca.pem\"").write(
            toFile: workspace.config, atomically: true, encoding: .utf8)
        let result = try await workspace.run(["sync", "users"])
        try await server.shutdown()
        #expect(result.status == 1)
        #expect(
            result.standardError
                == "syncd: users: the TLS handshake failed: the server refused the connection without a client "
                + "certificate it accepts; kept the stored data\n")
    }

    @Test("check-config notes a client certificate from a systemd credential it cannot read now, and passes")
    func credentialNote() async throws {
        let workspace = try CLITests.Workspace(
            toml: Self.toml(
                "https://a.example/users",
                extra: "client_certificate_credential = \"client.pem\"\nclient_key_credential = \"client.key\""))
        defer { workspace.remove() }
        let result = try await SyncdProcess.run(
            ["check-config", "--config", workspace.config], environment: ["CREDENTIALS_DIRECTORY": ""])
        #expect(result.status == 0)
        #expect(
            result.standardError
                == "note: users: client_certificate_credential \"client.pem\": $CREDENTIALS_DIRECTORY is not set "
                + "(LoadCredential= in the unit provides it)\n")
    }

    @Test("check-config names the line of each unusable proxy and TLS setting, offline, and exits 78")
    func checkConfig() async throws {
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        _ = try await PrivateCA.make(in: workspace.path)
        try "not a certificate\n".write(toFile: workspace.path + "/junk.pem", atomically: true, encoding: .utf8)
        let toml = """
            database = "cache.db"

            [defaults]
            proxy = "https://user:pw@proxy.corp:3128"

            [[endpoint]]
            name = "a"
            url = "https://a.example/"
            ca_file = "missing.pem"

            [[endpoint]]
            name = "b"
            url = "https://b.example/"
            ca_file = "junk.pem"

            [[endpoint]]
            name = "c"
            url = "https://c.example/"
            client_certificate_file = "client.pem"
            client_key_file = "unrelated.key"

            [[endpoint]]
            name = "d"
            url = "https://d.example/"
            proxy_auth = { type = "bearer", username = "u", password_env = "P" }
            ca_only = "yes"
            """
        try toml.write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let result = try await workspace.run(["check-config"])
        let path = workspace.path
        #expect(result.status == 78)
        #expect(
            result.standardError.split(separator: "\n").map(String.init) == [
                "syncd: \(path)/syncd.toml:4: [defaults]: proxy must be an http:// URL such as \"http://proxy.corp:3128\" "
                    + "(https:// and SOCKS proxies are not supported)",
                "\(path)/syncd.toml:9: [[endpoint]] \"a\": ca_file \(path)/missing.pem: no such file",
                "\(path)/syncd.toml:14: [[endpoint]] \"b\": ca_file \(path)/junk.pem holds no PEM certificate",
                "\(path)/syncd.toml:20: [[endpoint]] \"c\": client_key_file \(path)/unrelated.key is not the "
                    + "private key of client_certificate_file \(path)/client.pem",
                "\(path)/syncd.toml:25: [[endpoint]] \"d\": proxy_auth: type must be \"basic\"",
                "\(path)/syncd.toml:26: [[endpoint]] \"d\": ca_only must be true or false",
            ])
        #expect(!result.standardError.contains("pw"))
    }
}
