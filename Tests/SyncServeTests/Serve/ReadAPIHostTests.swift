import Foundation
import SyncServe
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// The read API's DNS rebinding defence (Host checked against the listen address when no token is set) and the
/// headers that keep a served document from running as a page of the API's origin.
@Suite("read API: Host and document headers")
struct ReadAPIHostTests {
    static func port(_ api: ReadAPIHarness) -> String {
        String(api.baseURL.split(separator: ":").last ?? "")
    }

    @Test("without a token, a Host other than the listen address or localhost with its port gets 421 problem+json")
    func foreignHost() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let port = Self.port(api)
            for host in ["rebind.attacker.example:\(port)", "127.0.0.1:1", "localhost", "127.0.0.1.nip.io:\(port)"] {
                let answer = try await api.get("/v1/endpoints/users/records", headers: [("Host", host)])
                #expect(answer.status == 421, "\(host)")
                #expect(answer.header("Content-Type") == "application/problem+json")
                #expect(
                    answer.body.contains(
                        #""detail":"The Host header does not name the address this read API listens on.""#))
                #expect(!answer.body.contains("Ann"))
            }
            for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)", "[::1]:\(port)"] {
                let answer = try await api.get("/v1/endpoints/users/records", headers: [("Host", host)])
                #expect(answer.status == 200, "\(host)")
            }
        }
    }

    @Test("with a token, the token is the guard and any Host is answered")
    func tokenAnyHost() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture, token: "t0ken") { api in
            let answer = try await api.get(
                "/v1/endpoints/users/records",
                headers: [("Host", "api.example.com"), ("Authorization", "Bearer t0ken")])
            #expect(answer.status == 200)
        }
    }

    @Test("on a Unix socket any Host is fine")
    func unixSocketAnyHost() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture, listen: .unix(path: files.file("read.sock"))) { api in
            let answer = try await api.get("/v1/endpoints/users/records", headers: [("Host", "rebind.example")])
            #expect(answer.status == 200)
        }
    }

    @Test("a document goes out with X-Content-Type-Options: nosniff and Content-Security-Policy: sandbox")
    func documentHeaders() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let answer = try await api.get("/v1/endpoints/flags/document")
            #expect(answer.status == 200)
            #expect(answer.header("X-Content-Type-Options") == "nosniff")
            #expect(answer.header("Content-Security-Policy") == "sandbox")
            let again = try await api.get(
                "/v1/endpoints/flags/document", headers: [("If-None-Match", answer.header("ETag") ?? "")])
            #expect(again.status == 304)
        }
    }
}
