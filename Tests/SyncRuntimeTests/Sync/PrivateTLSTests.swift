import Foundation
import NIOSSL
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore

/// HTTPS with a private CA and mutual TLS, against an upstream on loopback whose certificates the test makes with
/// `openssl` (``PrivateCA``): verified always, a client certificate sent when configured.
@Suite("sync: private CAs and client certificates")
struct PrivateTLSTests {
    static let body = #"{"data": [{"id": 1}]}"#

    /// A collection endpoint at `url` with `extra` keys; a TLS failure is not retried, so one attempt fails the run.
    static func toml(_ url: String, extra: String) -> String {
        """
        [[endpoint]]
        name = "users"
        url = "\(url)"
        records = "data"
        primary_key = ["id"]
        \(extra)

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        """
    }

    /// Runs `body` with the test's CA and an HTTPS upstream of it (or of the stranger CA) on loopback.
    static func withUpstream(
        stranger: Bool = false, requiringClientCertificate: Bool = false,
        _ body: (PrivateCA, LoopbackHTTPServer) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        let ca = try await PrivateCA.make(in: directory.path)
        let context = try ca.serverContext(stranger: stranger, requiringClientCertificate: requiringClientCertificate)
        let server = try await LoopbackHTTPServer.start(tls: context) { _ in .json(Array(Self.body.utf8)) }
        try await running({ try await body(ca, server) }, thenStopping: server.shutdown)
    }

    @Test(
        "an upstream signed by the ca_file's CA is trusted, whether the CA adds to the system's roots or replaces them")
    func privateCA() async throws {
        try await Self.withUpstream { ca, server in
            for caOnly in [false, true] {
                let fixture = try SyncFixture(
                    toml: Self.toml(server.baseURL + "/users", extra: "ca_file = \"\(ca.caFile)\"\nca_only = \(caOnly)")
                )
                let report = try await fixture.sync("users")
                #expect(report.outcome == .changed, "\(report.error ?? "")")
            }
        }
    }

    @Test("an upstream signed by an unknown CA is refused in one sentence, and nothing is stored")
    func unknownCA() async throws {
        try await Self.withUpstream(stranger: true) { ca, server in
            let fixture = try SyncFixture(
                toml: Self.toml(server.baseURL + "/users", extra: "ca_file = \"\(ca.caFile)\""))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .failed)
            #expect(
                report.error
                    == "users: the TLS handshake failed: the server's certificate is not trusted or not for this host; "
                    + "kept the stored data")
            #expect(server.requestCount == 0)
        }
    }

    @Test("an upstream that requires a client certificate refuses syncd without one, and serves it with one")
    func mutualTLS() async throws {
        try await Self.withUpstream(requiringClientCertificate: true) { ca, server in
            let url = server.baseURL + "/users"
            let without = try SyncFixture(toml: Self.toml(url, extra: "ca_file = \"\(ca.caFile)\""))
            let refused = try await without.sync("users")
            #expect(refused.outcome == .failed)
            #expect(
                refused.error
                    == "users: the TLS handshake failed: the server refused the connection without a client certificate "
                    + "it accepts; kept the stored data")
            #expect(server.requestCount == 0)
            let extra = """
                ca_file = "\(ca.caFile)"
                client_certificate_file = "\(ca.clientCertificate)"
                client_key_file = "\(ca.clientKey)"
                """
            let with = try SyncFixture(toml: Self.toml(url, extra: extra))
            let served = try await with.sync("users")
            #expect(served.outcome == .changed, "\(served.error ?? "")")
            #expect(server.requestCount == 1)
        }
    }

    @Test("the library's request takes the same settings: a client certificate from a systemd credential")
    func libraryRequest() async throws {
        try await Self.withUpstream(requiringClientCertificate: true) { ca, server in
            var request = APIRequest(baseURL: server.baseURL, path: "/users")
            request.tls = TLSSettings(
                caFile: ca.caFile, caOnly: true, clientCertificate: .file(path: ca.clientCertificate),
                clientKey: .systemdCredential("client.key"))
            let environment = ["CREDENTIALS_DIRECTORY": ca.directory]
            let response = try await APIClient.withClient(configuration: .init(environment: environment)) {
                try await $0.response(for: request)
            }
            #expect(response.status == 200)
        }
    }

    @Test("ca_only replaces the system's roots with the CA file's; without it they are added")
    func caOnlyDropsSystemRoots() async throws {
        let directory = try TemporaryDirectory()
        let ca = try await PrivateCA.make(in: directory.path)
        let roots = try NIOSSLCertificate.fromPEMFile(ca.caFile)
        let only = try TLSSettings(caFile: ca.caFile, caOnly: true).makeClientConfiguration(environment: [:])
        #expect(only.trustRoots == .certificates(roots))
        #expect(only.additionalTrustRoots.isEmpty)
        let added = try TLSSettings(caFile: ca.caFile).makeClientConfiguration(environment: [:])
        #expect(added.trustRoots == .default)
        #expect(added.additionalTrustRoots == [.certificates(roots)])
        #expect(added.certificateVerification == .fullVerification)
    }
}
