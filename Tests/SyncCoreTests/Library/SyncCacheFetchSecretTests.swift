import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// SyncCache.fetch keeps a secret written in a URL out of its rows, and still tells such URLs apart.
@Suite("library: SyncCache.fetch and secrets in URLs")
struct ResourceCacheSecretTests {
    @Test("URLs differing only in a key keep their own answers, and neither key is stored")
    func keyedBySecretFreeURL() async throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        try await withTestUpstream { upstream in
            upstream.route("/config.json") { request in
                jsonAnswer(#"{"theme": "\#(request.query["api_key"] == "tenant-a-s3cr3t" ? "dark" : "light")"}"#)
            }
            let cache = try SyncCacheFetchTests.cache(in: directory, clock: clock)
            let base = upstream.url("/config.json?api_key=")
            let first = try await cache.fetch(
                base + "tenant-a-s3cr3t", maxAge: .seconds(60), decode: SyncCacheFetchTests.decode)
            let second = try await cache.fetch(
                base + "tenant-b-s3cr3t", maxAge: .seconds(60), decode: SyncCacheFetchTests.decode)
            #expect(first.value.theme == "dark" && second.value.theme == "light")
            let again = try await cache.fetch(
                base + "tenant-a-s3cr3t", maxAge: .seconds(60), decode: SyncCacheFetchTests.decode)
            #expect(again.source == .cache && again.value.theme == "dark")
            let keys = try Database(path: directory.file("cache.db"), mode: .readOnly)
                .rows("SELECT url FROM syncd_resources ORDER BY url").compactMap { $0.text("url") }
            #expect(keys.count == 2)
            #expect(keys.allSatisfy { $0.hasPrefix(upstream.url("/config.json?api_key=REDACTED#sha256=")) })
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path)
            where file.hasPrefix("cache.db") {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.file(file)))
                #expect(bytes.range(of: Data("s3cr3t".utf8)) == nil, "\(file)")
            }
        }
    }
}
