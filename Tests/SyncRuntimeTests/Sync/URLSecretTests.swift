import Foundation
import Logging
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// A password or key written in an endpoint's `url` is sent, but never stored, logged or served.
@Suite("sync: secrets in URLs")
struct URLSecretTests {
    /// Every secret a test URL carries; none may appear anywhere syncd writes.
    static let secrets = ["pw-s3cr3t1", "s3cr3t2", "s3cr3t3", "s3cr3t4", "s3cr3t5"]

    /// A URL with a password, an api_key, an access token and a signature, and a query credential named `k`.
    static func toml(_ upstream: TestUpstream) -> String {
        let base = upstream.url("/users").replacingOccurrences(of: "http://", with: "http://ann:pw-s3cr3t1@")
        return HTTPBehaviourFixture.toml(
            base + "?api_key=s3cr3t2&access_token=s3cr3t3&X-Amz-Signature=s3cr3t4&page=1",
            extra: #"auth = { type = "query", name = "k", value_env = "KEY" }"#)
    }

    static func expectNoSecret(in text: String, _ comment: Comment? = nil) {
        for secret in secrets { #expect(!text.contains(secret), comment) }
    }

    static func expectNoSecretStored(_ fixture: SyncFixture) throws {
        for file in try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path)
        where file.hasPrefix("cache.db") {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.directory.file(file)))
            for secret in secrets { #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(file): \(secret)") }
        }
    }

    @Test("the secrets are sent, and the database, the logs and /v1/endpoints show REDACTED instead")
    func redactedEverywhere() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", HTTPBehaviourFixture.body)
            var fixture = try SyncFixture(toml: Self.toml(upstream))
            fixture.environment = ["KEY": "s3cr3t5"]
            let (report, lines) = try await PaginationAuthTests.syncLogging(fixture, "users")
            #expect(report.outcome == .changed)
            let sent = try #require(upstream.requests.first)
            #expect(sent.query["api_key"] == "s3cr3t2" && sent.query["k"] == "s3cr3t5")
            Self.expectNoSecret(in: lines.joined(separator: "\n"), "logs")
            let stored = try #require(try fixture.rows("SELECT url FROM syncd_endpoints").first?.text("url"))
            let expected =
                upstream.url("/users").replacingOccurrences(of: "http://", with: "http://REDACTED@")
                + "?api_key=REDACTED&access_token=REDACTED&X-Amz-Signature=REDACTED&page=1"
            #expect(stored == expected)
            try Self.expectNoSecretStored(fixture)
            try await ReadAPIHarness.with(fixture) { api in
                let endpoints = try await api.get("/v1/endpoints")
                #expect(endpoints.status == 200)
                #expect(
                    endpoints.body.contains(#""url":"\#(expected.replacingOccurrences(of: "/", with: "\\/"))""#)
                        || endpoints.body.contains(#""url":"\#(expected)""#))
                Self.expectNoSecret(in: endpoints.body, "/v1/endpoints")
            }
        }
    }

    @Test(
        "a URL an older version stored with its secrets is rewritten, and a cache row keyed by one deleted, when the database is opened for writing"
    )
    func olderDatabaseRewritten() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", HTTPBehaviourFixture.body)
            var fixture = try SyncFixture(toml: Self.toml(upstream))
            fixture.environment = ["KEY": "s3cr3t5"]
            _ = try await fixture.sync("users")
            let old = "https://ann:pw-s3cr3t1@example.com/users?api_key=s3cr3t2"
            try await fixture.database.perform { database in
                try database.execute("UPDATE syncd_endpoints SET url = ?", [.text(old)])
                try database.execute(
                    "INSERT INTO syncd_endpoints (name, kind, url) VALUES ('gone', 'document', ?)", [.text(old)])
                for url in [old, "https://example.com/config.json"] {
                    try database.execute(
                        "INSERT INTO syncd_resources (url, body, validated_at) VALUES (?, x'7b7d', 'now')",
                        [.text(url)])
                }
            }
            let syncer = try SyncCache(
                path: fixture.directory.file("cache.db"),
                configuration: try SyncConfiguration(toml: Self.toml(upstream), sourcePath: "app.toml"))
            try await syncer.shutdown()
            let urls = try fixture.rows("SELECT url FROM syncd_endpoints ORDER BY name").compactMap { $0.text("url") }
            #expect(urls == Array(repeating: "https://REDACTED@example.com/users?api_key=REDACTED", count: 2))
            #expect(try fixture.scalar("SELECT count(*) FROM syncd_resources") == .integer(1), "the cache row kept")
        }
    }
}
