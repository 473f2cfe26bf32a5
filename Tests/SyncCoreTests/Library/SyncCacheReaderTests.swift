import Foundation
import SyncCore
import SyncTesting
import Testing

/// The read session the read API serves from, through the public API any program has: several reads of one
/// committed state, pages, records, documents and the change feed as stored, each with the tags and versions a
/// program revalidates with.
@Suite("library: SyncCache.read, a session of reads as stored")
struct SyncCacheReaderTests {
    @Test("one session reads the instance and the statuses; the tag of a list is the instance and the version")
    func statuses() async throws {
        let (cache, fixture, files) = try await SyncCacheReadingTests.store()
        defer { _ = (fixture, files) }
        let (instance, statuses) = try await cache.read { reader in (try reader.instance(), try reader.statuses()) }
        #expect(statuses.map(\.name) == ["flags", "regions", "users"])
        let users = try #require(statuses.last)
        #expect(users.version == 1 && users.recordCount == 4 && users.changedAt != nil)
        let page = try await cache.read { reader in try reader.records(from: "users") }
        #expect(page.etag == SyncCache.etag(instance: instance, version: users.version))
        #expect(try await cache.records(SyncCacheReadingTests.User.self, from: "users").etag == page.etag)
        #expect(!(try await cache.isModified("users", since: page.etag)))
    }

    @Test("a page of records as stored: the query, the total, the byte cap, objects of some columns")
    func records() async throws {
        let (cache, fixture, files) = try await SyncCacheReadingTests.store()
        defer { _ = (fixture, files) }
        var query = SyncCache.Query(filters: [.equal("city", "Oslo")], order: [.descending("id")])
        let oslo = try await cache.read { [query] reader in try reader.records(from: "users", query, countingAll: true)
        }
        #expect(oslo.json.count == 2 && oslo.total == 2 && oslo.version == 1 && oslo.changedAt != nil)
        #expect(oslo.object(at: 0, columns: [1, 0]) == #"{"name":"Cyd","id":3}"#)
        query.limit = 1
        let first = try await cache.read { [query] reader in try reader.records(from: "users", query, countingAll: true)
        }
        #expect(first.json.count == 1 && first.total == 2)
        let uncounted = try await cache.read { [query] reader in try reader.records(from: "users", query) }
        #expect(uncounted.json.count == 1 && uncounted.total == nil)
        let capped = try await cache.read { reader in try reader.records(from: "users", maxBytes: 1) }
        #expect(capped.json.count == 1, "at least one record, and no more once the budget is spent")
        let unknown = await #expect(throws: SyncError.badQuery) {
            try await cache.read { reader in try reader.records(from: "users", .init(filters: [.equal("x", "1")])) }
        }
        #expect(unknown?.description.hasPrefix(#""x" is not a configured column of "users""#) == true)
        await #expect(throws: SyncError.unknownEndpoint) {
            try await cache.read { reader in try reader.records(from: "nope") }
        }
    }

    @Test("one record and a document as stored, with their own tags; the wrong kind of endpoint is a bad query")
    func recordAndDocument() async throws {
        let (cache, fixture, files) = try await SyncCacheReadingTests.store()
        defer { _ = (fixture, files) }
        let (lima, flags, missing) = try await cache.read { reader in
            (
                try reader.record(from: "regions", key: ["pe", "15"]), try reader.document(from: "flags"),
                try reader.record(from: "users", key: ["99"])
            )
        }
        let region = try #require(lima)
        #expect(region.json.contains(#""Lima""#) && region.version == 1 && region.endpointVersion == 1)
        let cached = try #require(try await cache.recordJSON(from: "regions", key: ["pe", "15"]))
        #expect(region.etag == cached.etag && region.json == cached.value)
        let document = try #require(flags)
        #expect(String(decoding: document.body, as: UTF8.self) == #"{"dark_mode": true}"#)
        #expect(document.etag == (try await cache.documentBody(from: "flags"))?.etag)
        #expect(missing == nil)
        await #expect(throws: SyncError.badQuery) {
            try await cache.read { reader in try reader.document(from: "users") }
        }
        await #expect(throws: SyncError.badQuery) {
            try await cache.read { reader in try reader.record(from: "users", key: ["x"]) }
        }
    }

    @Test("the change feed in capped parts: each part says where the next starts, and the walk misses nothing")
    func changes() async throws {
        let (cache, fixture, files) = try await SyncCacheReadingTests.store()
        defer { _ = (fixture, files) }
        var since: Int64 = 0
        var after: SyncCache.FeedPosition?
        var changed: [String] = []
        var parts = 0
        repeat {
            let part = try await cache.read { [since, after] reader in
                try reader.changes(from: "users", since: since, after: after, limit: 3)
            }
            changed += part.changed
            (since, after, parts) = (part.version, part.next, parts + 1)
            #expect(part.etag.hasSuffix(".1\"") && part.endpointVersion == 1 && part.deleted.isEmpty)
        } while after != nil
        #expect(parts == 2 && changed.count == 4 && since == 1)
        let position = try #require(SyncCache.FeedPosition("12.d.4031"))
        #expect(position.version == 12 && position.description == "12.d.4031")
        #expect(SyncCache.FeedPosition("12.x.1") == nil && SyncCache.FeedPosition("") == nil)
    }

    @Test("the generation moves with a commit of any process, and holds still without one")
    func generation() async throws {
        let files = try TemporaryDirectory()
        let configuration = try SyncConfiguration(endpoints: [try SyncCacheSyncingTests.users(files)])
        let writer = try SyncCache(path: files.file("cache.db"), configuration: configuration)
        _ = try await writer.sync("users")
        let reader = try SyncCache(readingFrom: files.file("cache.db"))
        let before = try reader.generation()
        #expect(try reader.generation() == before)
        _ = try await writer.sync("users")
        #expect(try reader.generation() != before)
        try await writer.shutdown()
    }

    @Test("freshness: fresh until the next poll is overdue past the timeout; stale with the reason said")
    func freshness() async throws {
        let (cache, fixture, files) = try await SyncCacheReadingTests.store()
        defer { _ = (fixture, files) }
        let users = try #require(try await cache.statuses().last)
        var schedule = SyncCache.Freshness.Schedule(users)
        #expect(schedule.lastSuccess != nil && !schedule.lastPollFailed)
        // Round times from here on, with no persisted next poll: the next is due an interval after the success.
        let success = 1_000_000.0
        (schedule.lastSuccess, schedule.nextDue) = (success, nil)
        func freshness(at now: Double) -> SyncCache.Freshness {
            SyncCache.Freshness(schedule: schedule, interval: .seconds(60), timeout: .seconds(10), now: now)
        }
        let fresh = freshness(at: success + 20)
        #expect(fresh.isFresh && fresh.age == 20 && fresh.ttl == 40 && fresh.maxAge == 60)
        let late = freshness(at: success + 65)
        #expect(late.isFresh && late.ttl == -5, "a poll in flight does not make the data stale")
        let overdue = freshness(at: success + 71)
        #expect(overdue.staleReason == .pollOverdue && overdue.maxAge == 0)
        #expect(overdue.staleReason?.description == "poll overdue")
        var never = schedule
        never.lastSuccess = nil
        let first = SyncCache.Freshness(schedule: never, interval: .seconds(60), timeout: .seconds(10), now: success)
        #expect(first.staleReason == .neverSynced && first.staleReason?.description == "never synced")
        never.lastSuccess = success
        never.lastPollFailed = true
        #expect(
            SyncCache.Freshness(schedule: never, interval: .seconds(60), timeout: .seconds(10), now: success)
                .staleReason == .lastPollFailed)
        // What a cache in front may serve once stale: the timeout while it asks again, the backoff's cap if syncd
        // fails it; the same whether the data is fresh or stale.
        #expect(fresh.staleWhileRevalidate == 10 && overdue.staleWhileRevalidate == 10)
        #expect(fresh.staleIfError == 1920 && overdue.staleIfError == 1920, "32 intervals of 60 s")
        let hourly = SyncCache.Freshness(schedule: schedule, interval: .seconds(3600), timeout: .seconds(30), now: 0)
        #expect(hourly.staleIfError == 3600, "at most an hour, never less than the interval")
        let daily = SyncCache.Freshness(schedule: schedule, interval: .seconds(86_400), timeout: .zero, now: 0)
        #expect(daily.staleIfError == 86_400 && daily.staleWhileRevalidate == 0)
        let second = SyncCache.Freshness(schedule: schedule, interval: .seconds(1), timeout: .seconds(5), now: 0)
        #expect(second.staleIfError == 32)
    }
}
