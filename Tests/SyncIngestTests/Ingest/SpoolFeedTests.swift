import Foundation
import NIOCore
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncIngest

/// A sync stores the records of a body while the rest of it arrives (SpoolFeed): the decoding thread follows the
/// spool as it grows, and gives way — the transaction rolls back, the run stores the whole body later — when the
/// fetch fails, a page is fetched again, or another write waits while it waits for the network.
@Suite("sync: storing a body while it arrives")
struct SpoolFeedTests {
    static func user(_ id: Int) -> String { #"{"id": \#(id), "name": "user \#(id)"}"# }

    /// A pipeline following `feed` over `spool`.
    static func pipeline(_ spool: BodySpool, _ feed: SpoolFeed) throws -> RecordPipeline {
        RecordPipeline(decoder: try RecordPipelineTests.decoder(), spool: spool, pages: [], feed: feed)
    }

    @Test("records are handed over as their bytes arrive, page after page, before the fetch ends")
    func followsTheSpool() throws {
        let directory = try TemporaryDirectory()
        let spool = BodySpool(directory: directory.path)
        let feed = SpoolFeed()
        let pipeline = try Self.pipeline(spool, feed)
        defer { pipeline.stop() }

        // More than a batch of whole records, and the start of one more: the fetch is still under way.
        let first = "[" + (1...600).map(Self.user).joined(separator: ", ") + #", {"id": 601, "na"#
        try spool.append(ByteBuffer(string: first))
        feed.received(upTo: spool.count, in: spool)
        var ids: [ColumnValue] = []
        while ids.count < 600 {
            let batch = try #require(try pipeline.next())
            ids += batch.records.map { $0.values[0] }
        }
        #expect(ids == (1...600).map { .integer(Int64($0)) }, "all 600 whole records, with no more bytes to come yet")
        #expect(feed.finalFacts == nil)

        // The page ends; a second page follows, decoded as a body of its own.
        try spool.append(ByteBuffer(string: #"me": "user 601"}]"#))
        let page = 0..<spool.count
        feed.pageEnded(page)
        try spool.append(ByteBuffer(string: "[" + Self.user(602) + "]"))
        feed.received(upTo: spool.count, in: spool)
        feed.pageEnded(page.upperBound..<spool.count)
        feed.close(with: RunFacts(startedAt: 1, finishedAt: 2, httpStatus: 200, bytes: spool.count, pages: 2))
        while let batch = try pipeline.next() {
            ids += batch.records.map { $0.values[0] }
        }
        #expect(ids == (1...602).map { .integer(Int64($0)) })
        #expect(feed.finalFacts?.pages == 2)
    }

    @Test("its pages are known whole once the fetch succeeded, and never after a failure")
    func completedPages() throws {
        let directory = try TemporaryDirectory()
        let spool = BodySpool(directory: directory.path)
        try spool.append(ByteBuffer(string: "[" + Self.user(1) + "]"))
        // A feed whose one page arrived whole.
        let arrived = {
            let feed = SpoolFeed()
            feed.received(upTo: spool.count, in: spool)
            feed.pageEnded(0..<spool.count)
            return feed
        }
        let succeeded = arrived()
        #expect(succeeded.completedPages == nil, "more pages may follow")
        succeeded.close(with: RunFacts(startedAt: 1, finishedAt: 2, httpStatus: 200))
        #expect(succeeded.completedPages == [0..<spool.count])
        let failed = arrived()
        failed.fail()
        #expect(failed.completedPages == nil)
    }

    @Test("waiting for bytes while another write waits, it gives way; with nobody waiting, it keeps waiting")
    func givesWay() throws {
        let directory = try TemporaryDirectory()
        let spool = BodySpool(directory: directory.path)
        try spool.append(ByteBuffer(string: "[" + Self.user(1) + ", "))
        let waiting = SpoolFeed()
        waiting.setYield { true }
        waiting.received(upTo: spool.count, in: spool)
        let yielding = try Self.pipeline(spool, waiting)
        defer { yielding.stop() }
        let error = #expect(throws: SpoolFeed.Stop.self) {
            while try yielding.next() != nil {}
        }
        #expect(error == .abandoned)

        let alone = SpoolFeed()
        alone.received(upTo: spool.count, in: spool)
        #expect(alone.hasNews(after: 0, page: 0))
        #expect(!alone.hasNews(after: spool.count, page: 0), "nothing past the bytes received: it would wait")
        try spool.append(ByteBuffer(string: Self.user(2) + "]"))
        alone.pageEnded(0..<spool.count)
        alone.close(with: RunFacts(startedAt: 1, finishedAt: 2))
        let pipeline = try Self.pipeline(spool, alone)
        defer { pipeline.stop() }
        var count = 0
        while let batch = try pipeline.next() { count += batch.records.count }
        #expect(count == 2)
    }

    @Test("a failed fetch fails the reader; a page fetched again gives way only if it drops bytes already received")
    func failsAndRestarts() throws {
        let directory = try TemporaryDirectory()
        let spool = BodySpool(directory: directory.path)
        try spool.append(ByteBuffer(string: "[" + Self.user(1)))

        let failed = SpoolFeed()
        failed.received(upTo: spool.count, in: spool)
        failed.fail()
        #expect(throws: SpoolFeed.Stop.fetchFailed) { try failed.next(after: 0, page: 0) }

        let retried = SpoolFeed()
        retried.received(upTo: spool.count, in: spool)
        retried.restarting(at: spool.count)
        #expect(try retried.next(after: 0, page: 0) == .bytes(upTo: spool.count), "a next page starts at the end")
        retried.restarting(at: 1)
        #expect(throws: SpoolFeed.Stop.abandoned) { try retried.next(after: 0, page: 0) }
    }

    @Test("a waiting reader is woken for every 64 KiB and at each page's end, not for each small append")
    func wakesInGulps() throws {
        let directory = try TemporaryDirectory()
        let spool = BodySpool(directory: directory.path)
        let feed = SpoolFeed()
        let record = ByteBuffer(string: Self.user(1) + ", ")
        try spool.append(ByteBuffer(string: "["))
        var announcements: [Int] = []
        while spool.count < 2 * SpoolFeed.wakeBytes + SpoolFeed.wakeBytes / 2 {
            try spool.append(record)
            feed.received(upTo: spool.count, in: spool)
            if feed.announcedBytes != announcements.last ?? 0 { announcements.append(feed.announcedBytes) }
        }
        #expect(announcements.count == 2, "\(announcements)")
        #expect(announcements.allSatisfy { $0 >= SpoolFeed.wakeBytes })
        #expect(zip(announcements, announcements.dropFirst()).allSatisfy { $1 - $0 >= SpoolFeed.wakeBytes })
        #expect(feed.hasNews(after: announcements.last ?? 0, page: 0), "what was not announced is there to read")
        try spool.append(ByteBuffer(string: Self.user(2) + "]"))
        feed.received(upTo: spool.count, in: spool)
        feed.pageEnded(0..<spool.count)
        #expect(feed.announcedBytes == spool.count, "a page's end wakes the reader for all of it")
        try spool.append(ByteBuffer(string: "[]"))
        feed.received(upTo: spool.count, in: spool)
        feed.close(with: RunFacts(startedAt: 1, finishedAt: 2))
        #expect(feed.announcedBytes == spool.count, "so does the fetch's end")
    }

    @Test(
        "the consumer starts with the first bytes, once; a fetch that ends without any, or a cancelled wait, starts none"
    )
    func startsWithTheFirstBytes() async throws {
        let directory = try TemporaryDirectory()
        let spool = BodySpool(directory: directory.path)
        try spool.append(ByteBuffer(string: "["))
        let runs = Mutex(0)
        let store: @Sendable (DecodedBody) async -> Bool? = { body in
            runs.withLock { $0 += 1 }
            return body.isStreamed
        }

        // Waiting before the fetch ends, or asking after: the same answer.
        let failed = SpoolFeed()
        async let failedWaiting = failed.consume(store)
        failed.fail()
        failed.received(upTo: spool.count, in: spool)
        #expect(await failedWaiting == nil, "a failed fetch starts no transaction")
        #expect(await failed.consume(store) == nil)
        let notModified = SpoolFeed()
        async let notModifiedWaiting = notModified.consume(store)
        notModified.close(with: RunFacts(startedAt: 0, finishedAt: 1, httpStatus: 304))
        #expect(await notModifiedWaiting == nil, "a 304 starts no transaction")
        #expect(runs.withLock { $0 } == 0)

        let feed = SpoolFeed()
        async let waiting = feed.consume(store)
        feed.received(upTo: spool.count, in: spool)
        try spool.append(ByteBuffer(string: "1]"))
        feed.received(upTo: spool.count, in: spool)
        feed.close(with: RunFacts(startedAt: 0, finishedAt: 1, httpStatus: 200))
        #expect(await waiting == true, "started with the body as it arrives")
        let late = SpoolFeed()
        late.received(upTo: spool.count, in: spool)
        #expect(await late.consume(store) == true, "a consumer that asks after the first bytes starts at once")
        #expect(runs.withLock { $0 } == 2)

        let cancelled = Task { await SpoolFeed().consume(store) }
        cancelled.cancel()
        #expect(await cancelled.value == nil, "a cancelled wait ends, though the fetch never reports")
        #expect(runs.withLock { $0 } == 2)
    }
}
