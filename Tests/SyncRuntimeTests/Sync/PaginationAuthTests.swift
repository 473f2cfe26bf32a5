import Foundation
import Logging
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncSQLite
@testable import SyncSystemd

/// Credentials and headers go with every page of the endpoint's origin, and never to a page on another origin; the
/// secret is found nowhere syncd writes.
@Suite("sync: pagination and credentials")
struct PaginationAuthTests {
    static let secret = "p4g3d+s3cr3t/ä"

    static func toml(_ url: String, auth: String) -> String {
        PaginationTests.toml(
            url, pagination: #"{ type = "link" }"#,
            extra: """
                auth = \(auth)
                headers = { X-Client = "syncd-test" }
                """)
    }

    /// Syncs with a logger that keeps every line, at trace level.
    static func syncLogging(_ fixture: SyncFixture, _ name: String) async throws -> (SyncSummary, [String]) {
        let lines = Mutex<[String]>([])
        let output: JournalLogHandler.Output = { line in lines.withLock { $0.append(line) } }
        var logger = Logger(label: "syncd") { JournalLogHandler(label: $0, format: .human, output: output) }
        logger.logLevel = .trace
        var engine = fixture.engine
        engine.logger = logger
        let report = await engine.sync(try fixture.endpoint(name))
        return (report, lines.withLock { $0 })
    }

    static func expectNoSecretStored(_ fixture: SyncFixture) throws {
        var stored = ""
        let tables = try fixture.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap {
            $0.text("name")
        }
        for table in tables {
            stored += try fixture.rows("SELECT * FROM \(table)").map { "\($0.values)" }.joined()
        }
        #expect(!stored.contains("p4g3d"))
        for file in try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path)
        where file.hasPrefix("cache.db") {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.directory.file(file)))
            #expect(bytes.range(of: Data("p4g3d".utf8)) == nil, "\(file)")
        }
    }

    @Test(
        "bearer and query credentials and the headers go with every page of the endpoint's origin",
        arguments: [true, false])
    func everyPage(query: Bool) async throws {
        try await withTestUpstream { upstream in
            upstream.route("/users") { request in
                let page = Int(request.query["page"] ?? "1") ?? 1
                // The upstream echoes the key in its next link, as many do: it is replaced, not repeated.
                let next = page < 3 ? [("Link", "</users?page=\(page + 1)&api_key=echoed>; rel=next")] : []
                return jsonAnswer(#"{"data": \#(recordsJSON([page]))}"#, headers: next)
            }
            let auth =
                query
                ? #"{ type = "query", name = "api_key", value_env = "KEY" }"#
                : #"{ type = "bearer", token_env = "KEY" }"#
            var fixture = try SyncFixture(toml: Self.toml(upstream.url("/users"), auth: auth))
            fixture.environment = ["KEY": Self.secret]
            let (report, lines) = try await Self.syncLogging(fixture, "users")
            #expect(report.outcome == .changed && report.pages == 3)
            #expect(lines.count >= 3 && !lines.contains { $0.contains("p4g3d") || $0.contains("echoed") })
            let requests = upstream.requests
            #expect(requests.count == 3)
            for request in requests {
                #expect(request.header("X-Client") == "syncd-test")
                if query {
                    #expect(request.query["api_key"] == Self.secret)
                    #expect(request.uri.components(separatedBy: "api_key=").count == 2, "the key is sent once")
                } else {
                    #expect(request.header("Authorization") == "Bearer \(Self.secret)")
                }
            }
            try Self.expectNoSecretStored(fixture)
        }
    }

    @Test("a page refused on the third request logs and records no secret")
    func refusedPage() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/users") { request in
                let page = Int(request.query["page"] ?? "1") ?? 1
                if page == 3 { return jsonAnswer(#"{"error": "denied"}"#, status: 403) }
                return jsonAnswer(
                    #"{"data": \#(recordsJSON([page]))}"#, headers: [("Link", "</users?page=\(page + 1)>; rel=next")])
            }
            var fixture = try SyncFixture(
                toml: Self.toml(
                    upstream.url("/users"), auth: #"{ type = "query", name = "api_key", value_env = "KEY" }"#))
            fixture.environment = ["KEY": Self.secret]
            let (report, lines) = try await Self.syncLogging(fixture, "users")
            #expect(
                report.error
                    == "users: page 3: HTTP 403 Forbidden: the upstream refused the query credentials; kept the stored data"
            )
            #expect(lines.contains { $0.contains("page 3: HTTP 403") })
            #expect(!lines.contains { $0.contains("p4g3d") || $0.contains("api_key") })
            try Self.expectNoSecretStored(fixture)
        }
    }

    @Test(
        "a next link to another origin gets no credentials, bearer or query, and no configured header",
        arguments: [true, false])
    func crossOrigin(query: Bool) async throws {
        try await withTestUpstream { upstream in
            try await withTestUpstream { other in
                // An echoed query credential in the link is removed too.
                let elsewhere = other.url(query ? "/more?api_key=\(Self.secret)" : "/more")
                upstream.route("/users") { _ in
                    jsonAnswer(#"{"data": \#(recordsJSON([1]))}"#, headers: [("Link", "<\(elsewhere)>; rel=next")])
                }
                other.route("/more") { _ in jsonAnswer(#"{"data": \#(recordsJSON([2]))}"#) }
                let auth =
                    query
                    ? #"{ type = "query", name = "api_key", value_env = "KEY" }"#
                    : #"{ type = "bearer", token_env = "KEY" }"#
                var fixture = try SyncFixture(toml: Self.toml(upstream.url("/users"), auth: auth))
                fixture.environment = ["KEY": Self.secret]
                let report = try await fixture.sync("users")
                #expect(report.outcome == .changed && report.pages == 2 && report.inserted == 2)
                let first = try #require(upstream.requests.first)
                #expect(first.query["api_key"] == Self.secret || first.header("Authorization") != nil)
                let foreign = try #require(other.requests.first)
                #expect(foreign.query["api_key"] == nil && foreign.header("Authorization") == nil)
                #expect(!foreign.uri.contains("p4g3d") && !foreign.headers.contains { $0.value.contains("p4g3d") })
                #expect(foreign.header("X-Client") == nil, "configured headers stay with the configured origin")
                try Self.expectNoSecretStored(fixture)
            }
        }
    }
}
