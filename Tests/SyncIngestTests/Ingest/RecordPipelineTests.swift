import Foundation
import NIOCore
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncHTTP
@testable import SyncIngest

/// The second decoding pass of a sync runs on a thread of its own (RecordPipeline): what it hands over must be what
/// decoding the pages inline gives, and it must stop cleanly when the transaction ends early.
@Suite("sync: the decoding thread beside the transaction")
struct RecordPipelineTests {
    /// A spool holding one page per element of `pages`, each a JSON array of users with those ids.
    static func spool(_ pages: [[Int]], in directory: TemporaryDirectory) throws -> (BodySpool, [Range<Int>]) {
        let spool = BodySpool(directory: directory.path)
        var ranges: [Range<Int>] = []
        for ids in pages {
            let json =
                "["
                + ids.map { #"{"id": \#($0), "name": "user \#($0)", "tags": ["a", {"b": null}]}"# }
                .joined(separator: ", ") + "]"
            let start = spool.count
            try spool.append(ByteBuffer(string: json))
            ranges.append(start..<spool.count)
        }
        return (spool, ranges)
    }

    static func decoder() throws -> RecordDecoder {
        try makeRecordDecoder(columns: [
            .init(name: "id", path: "id", type: .integer), .init(name: "name", path: "name"),
        ])
    }

    /// Every record the pipeline hands over, with its raw bytes as text.
    static func drain(_ pipeline: RecordPipeline) throws -> [SeenRecord] {
        var seen: [SeenRecord] = []
        while let batch = try pipeline.next() {
            #expect(batch.records.count <= RecordPipeline.batchSize)
            for record in batch.records {
                seen.append(
                    SeenRecord(
                        index: record.index, raw: String(decoding: batch.bytes[record.raw], as: UTF8.self),
                        values: record.values, problems: record.problems, isRejected: record.isRejected))
            }
        }
        return seen
    }

    @Test("it hands over, in order, the records and exact bytes that decoding each page inline gives")
    func sameAsInline() throws {
        let directory = try TemporaryDirectory()
        // More records than batches can hold at once, across pages, so that the thread waits for the consumer.
        let pages = [Array(1...1500), [], Array(1501...4000), [4001]]
        let (spool, ranges) = try Self.spool(pages, in: directory)
        let decoder = try Self.decoder()
        var inline: [SeenRecord] = []
        for range in ranges {
            var bytes: [UInt8] = []
            try spool.forEachChunk(in: range) { bytes.append(contentsOf: $0) }
            inline += try decoder.records(in: bytes)
        }
        let pipeline = RecordPipeline(decoder: decoder, spool: spool, pages: ranges)
        defer { pipeline.stop() }
        let handed = try Self.drain(pipeline)
        #expect(handed.count == 4001)
        #expect(handed == inline)
        #expect(try pipeline.next() == nil, "after the last batch, nil again")
    }

    @Test("stopping it while it waits for room ends the thread; the caller does not hang")
    func stopsEarly() throws {
        let directory = try TemporaryDirectory()
        let (spool, ranges) = try Self.spool([Array(1...20_000)], in: directory)
        let pipeline = RecordPipeline(decoder: try Self.decoder(), spool: spool, pages: ranges)
        let first = try #require(try pipeline.next())
        #expect(first.records.first?.values.first == .integer(1))
        // The thread is decoding ahead or waiting for room; stop() returns only once it no longer reads the spool.
        pipeline.stop()
        pipeline.stop()
    }

    @Test("a small whole body is decoded on the caller's thread: the same records, in batches of the same size")
    func inlineSameAsThread() throws {
        let directory = try TemporaryDirectory()
        let (spool, ranges) = try Self.spool([Array(1...300), [], Array(301...600)], in: directory)
        let decoder = try Self.decoder()
        let threaded = RecordPipeline(decoder: decoder, spool: spool, pages: ranges, inlineLimit: 0)
        defer { threaded.stop() }
        #expect(!threaded.isInline)
        let inline = RecordPipeline(decoder: decoder, spool: spool, pages: ranges, inlineLimit: spool.count)
        defer { inline.stop() }
        #expect(inline.isInline)
        #expect(spool.count <= RecordPipeline.inlineLimit)
        let handed = try Self.drain(inline)
        #expect(handed.count == 600)
        #expect(handed == (try Self.drain(threaded)))
        #expect(try inline.next() == nil)
        // The default: a body this small is decoded inline, and one past the limit on a thread.
        #expect(RecordPipeline(decoder: decoder, spool: spool, pages: ranges).isInline)
        let (large, largeRanges) = try Self.spool([Array(1...2000)], in: directory)
        #expect(large.count > RecordPipeline.inlineLimit)
        let beyond = RecordPipeline(decoder: decoder, spool: large, pages: largeRanges)
        defer { beyond.stop() }
        #expect(!beyond.isInline)
    }

    @Test("a feed is followed on a thread until its fetch ends; after that, its pages are decoded inline")
    func inlineAfterTheFeedEnds() throws {
        let directory = try TemporaryDirectory()
        let (spool, ranges) = try Self.spool([[1, 2], [3]], in: directory)
        let decoder = try Self.decoder()
        let open = SpoolFeed()
        open.received(upTo: spool.count, in: spool)
        for range in ranges { open.pageEnded(range) }
        let following = RecordPipeline(decoder: decoder, spool: spool, pages: [], feed: open)
        #expect(!following.isInline, "the fetch has not ended: more pages may come")
        open.close(with: RunFacts(startedAt: 0, finishedAt: 0, httpStatus: 200))
        #expect(try Self.drain(following).map(\.index) == [0, 1, 0])
        following.stop()
        let ended = SpoolFeed()
        ended.received(upTo: spool.count, in: spool)
        for range in ranges { ended.pageEnded(range) }
        ended.close(with: RunFacts(startedAt: 0, finishedAt: 0, httpStatus: 200))
        let inline = RecordPipeline(decoder: decoder, spool: spool, pages: [], feed: ended)
        defer { inline.stop() }
        #expect(inline.isInline)
        #expect(try Self.drain(inline).map(\.index) == [0, 1, 0])
    }

    @Test(
        "a page that cannot be read back fails the consumer's next batch, with the spool's error",
        arguments: [0, RecordPipeline.inlineLimit])
    func readFailure(inlineLimit: Int) throws {
        let directory = try TemporaryDirectory()
        let (spool, ranges) = try Self.spool([[1, 2, 3]], in: directory)
        let beyond = ranges[0].upperBound..<(ranges[0].upperBound + 100)
        let pipeline = RecordPipeline(
            decoder: try Self.decoder(), spool: spool, pages: [ranges[0], beyond], inlineLimit: inlineLimit)
        defer { pipeline.stop() }
        var records = 0
        let error = #expect(throws: FetchError.self) {
            while let batch = try pipeline.next() { records += batch.records.count }
        }
        // The first page's records may still be in a batch the failure cut short: the transaction rolls back anyway.
        #expect(records <= 3)
        #expect(error?.description.contains("cannot read the body back") == true, "\(String(describing: error))")
    }

    @Test(
        "a page of several that does not decode fails the consumer with its number; a paged feed's fetch hears of it",
        arguments: [false, true])
    func pageDecodingFailure(followingFeed: Bool) throws {
        let directory = try TemporaryDirectory()
        let spool = BodySpool(directory: directory.path)
        var ranges: [Range<Int>] = []
        for page in [#"[{"id": 1, "name": "a"}]"#, #"[{"id": 2, "name": "b"}, {"id": 3,]"#, #"[{"id": 4}]"#] {
            let start = spool.count
            try spool.append(ByteBuffer(string: page))
            ranges.append(start..<spool.count)
        }
        let feed = SpoolFeed(isPaged: true)
        feed.received(upTo: spool.count, in: spool)
        for range in ranges { feed.pageEnded(range) }
        let pipeline = RecordPipeline(
            decoder: try Self.decoder(), spool: spool, pages: followingFeed ? [] : ranges,
            feed: followingFeed ? feed : nil, namingPages: true, inlineLimit: 0)
        defer { pipeline.stop() }
        let error = #expect(throws: PageDecodingError.self) { _ = try Self.drain(pipeline) }
        #expect(error?.page == 2)
        #expect(
            error?.description
                == #"page 2: the response is not valid JSON: at byte 34 (line 1, column 35) expected a string key, "#
                + #"found "]""#)
        #expect(feed.readerFailure?.page == (followingFeed ? 2 : nil), "only the reader of a feed tells it")
    }

    @Test(
        "a page that no longer decodes fails the consumer with the decoding error",
        arguments: [0, RecordPipeline.inlineLimit])
    func decodingFailure(inlineLimit: Int) throws {
        let directory = try TemporaryDirectory()
        let spool = BodySpool(directory: directory.path)
        try spool.append(ByteBuffer(string: #"[{"id": 1, "name": "a"}, {"id": 2"#))
        let pipeline = RecordPipeline(
            decoder: try Self.decoder(), spool: spool, pages: [0..<spool.count], inlineLimit: inlineLimit)
        defer { pipeline.stop() }
        let error = #expect(throws: BodyDecodingError.self) { _ = try Self.drain(pipeline) }
        #expect(error == .truncated)
    }

    @Test(
        "splitting pages, no batch holds two pages' records, and each batch says its page (a child endpoint's pages)",
        arguments: [0, 1 << 20])
    func splitsPages(inlineLimit: Int) throws {
        let directory = try TemporaryDirectory()
        let pages = [Array(1...3), [], Array(4...1100), [1101]]
        let (spool, ranges) = try Self.spool(pages, in: directory)
        let pipeline = RecordPipeline(
            decoder: try Self.decoder(), spool: spool, pages: ranges, inlineLimit: inlineLimit, splittingPages: true)
        defer { pipeline.stop() }
        var seen: [Int: [Int64]] = [:]
        var batches = 0
        while let batch = try pipeline.next() {
            batches += 1
            for record in batch.records {
                guard case .integer(let id) = record.values[0] else { continue }
                seen[batch.page, default: []].append(id)
            }
        }
        #expect(seen == [0: [1, 2, 3], 2: Array(4...1100).map(Int64.init), 3: [1101]])
        // Page 3's 1,097 records take three batches of 512 at most; pages 1 and 4 one each.
        #expect(batches == 5)
        // Without splitting, a batch fills across pages.
        let joined = RecordPipeline(decoder: try Self.decoder(), spool: spool, pages: ranges, inlineLimit: inlineLimit)
        defer { joined.stop() }
        let first = try #require(try joined.next())
        #expect(first.records.count == RecordPipeline.batchSize)
        #expect(first.page == 0)
    }
}
