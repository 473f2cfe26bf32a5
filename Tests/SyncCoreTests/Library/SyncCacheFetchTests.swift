import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncHTTP

/// Offline-first fetches: from the cache while fresh, revalidated when stale, the cached value when the upstream
/// is down — against a real loopback server, on an injected clock.
@Suite("library: SyncCache fetches any URL offline-first")
struct SyncCacheFetchTests {
    struct AppConfig: Decodable, Equatable {
        var theme: String
    }

    static func decode(_ data: Data) throws -> AppConfig { try JSONDecoder().decode(AppConfig.self, from: data) }

    /// A cache in `directory` fetching over the shared HTTP client, on `clock`.
    static func cache(in directory: TemporaryDirectory, clock: TestClock) throws -> SyncCache {
        try SyncCache(
            path: directory.file("cache.db"), transport: SchemeTransport(http: SharedTransport.http),
            now: { clock.now })
    }

    @Test("fresh from the cache without a request; stale revalidated with a 304; a new body when it changed")
    func freshStaleChanged() async throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        try await withTestUpstream { upstream in
            upstream.setJSON("/config.json", #"{"theme": "dark"}"#, etag: "\"v1\"")
            let cache = try Self.cache(in: directory, clock: clock)
            let url = upstream.url("/config.json")
            let first = try await cache.fetch(url, maxAge: .seconds(60), decode: Self.decode)
            #expect(first.value == AppConfig(theme: "dark") && first.source == .network)

            clock.advance(by: 30)
            let cached = try await cache.fetch(url, maxAge: .seconds(60), decode: Self.decode)
            #expect(cached.source == .cache)
            #expect(upstream.requests.count == 1)

            clock.advance(by: 60)
            let revalidated = try await cache.fetch(url, maxAge: .seconds(60), decode: Self.decode)
            #expect(revalidated.source == .revalidated && revalidated.value.theme == "dark")
            #expect(upstream.requests.count == 2)
            #expect(upstream.requests.last?.header("If-None-Match") == "\"v1\"")

            upstream.setJSON("/config.json", #"{"theme": "light"}"#, etag: "\"v2\"")
            clock.advance(by: 61)
            let changed = try await cache.fetch(url, maxAge: .seconds(60), decode: Self.decode)
            #expect(changed.value.theme == "light" && changed.source == .network)
        }
    }

    @Test("an upstream that fails or is gone gives the cached value, marked stale; with nothing cached, an error")
    func staleIfError() async throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let cache = try Self.cache(in: directory, clock: clock)
        var url = ""
        try await withTestUpstream { upstream in
            upstream.setJSON("/config.json", #"{"theme": "dark"}"#)
            url = upstream.url("/config.json")
            _ = try await cache.fetch(url, decode: Self.decode)
            upstream.set("/config.json", .json(Array("oops".utf8), status: 503))
            let failing = try await cache.fetch(url, decode: Self.decode)
            #expect(failing.isStale && failing.value.theme == "dark")
            #expect(failing.error == "HTTP 503 Service Unavailable")
        }
        // The server is stopped now: the connection is refused.
        let offline = try await cache.fetch(url, decode: Self.decode)
        #expect(offline.source == .staleAfterError && offline.value.theme == "dark")
        #expect(offline.error?.isEmpty == false)
        await #expect(throws: SyncError.unavailable) {
            try await cache.fetch(url + "?other", decode: Self.decode)
        }
    }

    @Test("a Resource is fetched offline-first too: its credential is sent, its decoding used, and a POST refused")
    func resource() async throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        try await withTestUpstream { upstream in
            upstream.setJSON("/config.json", #"{"theme": "dark"}"#, etag: "\"v1\"")
            let cache = try Self.cache(in: directory, clock: clock)
            let endpoint = APIRequest(baseURL: upstream.url("/config.json"), credential: .bearer(.literal("s3cret")))
            let theme = Resource(request: endpoint, as: AppConfig.self).map(\.theme)
            let first = try await cache.fetch(theme, maxAge: .seconds(60))
            #expect(first.value == "dark" && first.source == .network)
            #expect(upstream.requests.last?.header("Authorization") == "Bearer s3cret")
            clock.advance(by: 10)
            #expect(try await cache.fetch(theme, maxAge: .seconds(60)).source == .cache)
            #expect(upstream.requests.count == 1)
            for file in ["cache.db", "cache.db-wal"] {
                let bytes = (try? String(contentsOfFile: directory.file(file), encoding: .isoLatin1)) ?? ""
                #expect(!bytes.contains("s3cret"), "\(file)")
            }

            var post = endpoint
            post.method = .post
            await #expect(throws: SyncError.badQuery) {
                try await cache.fetch(Resource(request: post, as: AppConfig.self))
            }
        }
    }
}
