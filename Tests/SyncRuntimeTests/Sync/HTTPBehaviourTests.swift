import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite
@testable import SyncSupport

/// What syncd sends and accepts over HTTP: its headers, validators, redirects and gzip.
@Suite("sync: HTTP behaviour")
struct HTTPBehaviourTests {
    @Test("every request carries User-Agent, Accept, Accept-Encoding and the configured headers")
    func headers() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", HTTPBehaviourFixture.body)
            let fixture = try SyncFixture(
                toml: HTTPBehaviourFixture.toml(upstream.url("/users"), extra: #"headers = { X-Tenant = "acme" }"#))
            _ = try await fixture.sync("users")
            let request = try #require(upstream.requests.last)
            #expect(request.header("User-Agent") == "syncd/\(SyncdVersion.current)")
            #expect(request.header("Accept") == "application/json")
            #expect(request.header("Accept-Encoding") == "gzip, deflate")
            #expect(request.header("X-Tenant") == "acme")
        }
    }

    @Test("the stored Last-Modified is sent back as If-Modified-Since, and a 304 keeps the data")
    func lastModified() async throws {
        try await withTestUpstream { upstream in
            let date = "Wed, 21 Oct 2015 07:28:00 GMT"
            upstream.set(
                "/users", .json(Array(HTTPBehaviourFixture.body.utf8), headers: [(name: "Last-Modified", value: date)]))
            let fixture = try SyncFixture(toml: HTTPBehaviourFixture.toml(upstream.url("/users")))
            _ = try await fixture.sync("users")
            upstream.set("/users", UpstreamResponse(status: 304))
            let report = try await fixture.sync("users")
            #expect(upstream.requests.last?.header("If-Modified-Since") == date)
            #expect(report.outcome == .notModified)
            #expect(try fixture.scalar("SELECT count(*) FROM users") == .integer(1))
        }
    }

    @Test("redirects are followed")
    func redirect() async throws {
        try await withTestUpstream { upstream in
            upstream.set(
                "/old", UpstreamResponse(status: 301, headers: [(name: "Location", value: upstream.url("/users"))]))
            upstream.setJSON("/users", HTTPBehaviourFixture.body)
            let fixture = try SyncFixture(toml: HTTPBehaviourFixture.toml(upstream.url("/old")))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.inserted == 1)
        }
    }

    @Test("a gzip-encoded body is decompressed, and max_body counts the decompressed bytes")
    func gzip() async throws {
        let directory = try TemporaryDirectory()
        let many = (1...200).map { #"{"id": \#($0), "name": "someone with a rather long name, number \#($0)"}"# }
        let json = #"{"data": [\#(many.joined(separator: ","))]}"#
        try json.write(toFile: directory.file("body.json"), atomically: true, encoding: .utf8)
        let gzip = try ChildProcess.spawn("/bin/gzip", ["-k", directory.file("body.json")])
        _ = await gzip.wait()
        let compressed = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.file("body.json.gz"))))
        #expect(compressed.count < json.utf8.count / 4)
        try await withTestUpstream { upstream in
            upstream.set("/users", .json(compressed, headers: [(name: "Content-Encoding", value: "gzip")]))
            let fixture = try SyncFixture(toml: HTTPBehaviourFixture.toml(upstream.url("/users")))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.inserted == 200)
            #expect(report.bytes == json.utf8.count)

            let small = try SyncFixture(
                toml: HTTPBehaviourFixture.toml(upstream.url("/users"), extra: "max_body = \"4KiB\""))
            let refused = try await small.sync("users")
            #expect(refused.outcome == .failed)
            #expect(refused.error?.hasPrefix("users: the body is larger than max_body (4 KiB)") == true)
        }
    }
}
