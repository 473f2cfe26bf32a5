import Foundation
import NIOCore
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncHTTP
@testable import SyncIngest

/// A child endpoint's walks end side by side, in any order, each into a spool of its own; FanOutRun copies their pages
/// into the run's one spool in the parents' order, announcing each to the feed the transaction follows. Every page
/// must lie whole there, in that order, whichever walk ends first, and the run's bodies together are bounded.
@Suite("fan-out: the run's one spool, in the parents' order")
struct FanOutRunTests {
    static func parents(_ count: Int) -> [ParentRow] {
        (0..<count).map { ParentRow(key: "\($0)", values: [.integer(Int64($0))], version: 1) }
    }

    /// A walk's own spool holding `pages`, appended in chunks as a fetch does; where each page is.
    static func walkSpool(_ pages: [[UInt8]], in directory: TemporaryDirectory) throws -> (BodySpool, [Range<Int>]) {
        let own = BodySpool(directory: directory.path)
        var ranges: [Range<Int>] = []
        for page in pages {
            let start = own.count
            for chunk in stride(from: 0, to: page.count, by: 9000) {
                try own.append(ByteBuffer(bytes: page[chunk..<min(page.count, chunk + 9000)]))
            }
            ranges.append(start..<own.count)
        }
        return (own, ranges)
    }

    @Test("a walk that ends first waits for the ones ahead of it; the pages lie in the parents' order")
    func parentsOrder() throws {
        let directory = try TemporaryDirectory()
        let run = FanOutRun<Int>(parents: Self.parents(3), directory: directory.path, limit: BodySpool.runLimit)
        let (third, thirdPages) = try Self.walkSpool([Array("[3]".utf8)], in: directory)
        try run.deliver(2, pages: thirdPages, of: third)
        #expect(run.pages.isEmpty, "parent 2 waits for parents 0 and 1")
        try run.deliver(1, pages: [], of: nil)
        #expect(run.pages.isEmpty)
        let (first, firstPages) = try Self.walkSpool([Array("[1,".utf8), Array("2]".utf8)], in: directory)
        try run.deliver(0, pages: firstPages, of: first)
        #expect(run.pages == [0..<3, 3..<5, 5..<8])
        #expect((0..<4).map(run.owner(ofPage:)) == [0, 0, 2, nil])
        #expect(try readSpool(run.spool, 0..<8) == Array("[1,2][3]".utf8))
        #expect(throws: SpoolFeed.Stop.fetchFailed) { try run.finished() }
        run.finish(7)
        #expect(try run.finished() == 7)
    }

    @Test("walks delivering at once, out of order: each page whole, past memory into the file, announced in order")
    func concurrentDeliveries() async throws {
        let directory = try TemporaryDirectory()
        let feed = SpoolFeed(isPaged: true)
        async let consumed = feed.consume { body in body.isStreamed }
        // 24 walks of 3 pages each, 40 KiB a page: 2.8 MiB together, well past what a spool keeps in memory.
        let walks = (0..<24).map { walk in
            (0..<3).map { page in bytePattern(40 << 10, from: walk * 1000 + page * 7) }
        }
        let run = FanOutRun<Int>(
            parents: Self.parents(walks.count), directory: directory.path, limit: BodySpool.runLimit, feed: feed)
        try await withThrowingTaskGroup(of: Void.self) { group in
            // The last walks first, so that most wait.
            for (index, pages) in walks.enumerated().reversed() {
                group.addTask {
                    let (own, ranges) = try Self.walkSpool(pages, in: directory)
                    try run.deliver(index, pages: ranges, of: own)
                }
            }
            try await group.waitForAll()
        }
        #expect(!run.spool.isInMemory)
        #expect(run.spool.count == 24 * 3 * (40 << 10))
        let pages = run.pages
        #expect(pages.count == 72)
        for (page, range) in pages.enumerated() {
            #expect(run.owner(ofPage: page) == page / 3)
            #expect(try readSpool(run.spool, range) == walks[page / 3][page % 3])
        }
        // The feed heard every page, in order, and started its consumer with the body as it arrived.
        feed.close(with: RunFacts(startedAt: 0, finishedAt: 1))
        #expect(feed.completedPages == pages)
        #expect(await consumed == true)
    }

    @Test("the run's bodies together past the limit: one sentence, for that walk and every later one")
    func limit() throws {
        let directory = try TemporaryDirectory()
        let run = FanOutRun<Int>(parents: Self.parents(3), directory: directory.path, limit: 100)
        let (own, pages) = try Self.walkSpool([bytePattern(60)], in: directory)
        try run.deliver(0, pages: pages, of: own)
        #expect(run.pages == [0..<60])
        let error = #expect(throws: FetchError.self) { try run.deliver(1, pages: pages, of: own) }
        #expect(error?.description.contains("larger than 100 B together") == true)
        #expect(throws: FetchError.self) { try run.deliver(2, pages: [], of: nil) }
        #expect(run.spool.count == 60)
    }
}
