import Foundation
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncHTTP

/// What running syncs report of themselves (``SyncProgress.Sink``, ``SyncProgress``): the sink's throttle and the
/// estimates on an injected clock, and the counts a real paged sync reports against loopback upstreams.
@Suite("sync: progress people can see")
struct SyncProgressTests {
    /// Every progress a sink's callback heard.
    final class Heard: Sendable {
        private let updates = Mutex<[SyncProgress]>([])
        var all: [SyncProgress] { updates.withLock { $0 } }
        func append(_ progress: SyncProgress) { updates.withLock { $0.append(progress) } }
    }

    @Test(
        "a run is heard at its start, then at most once an interval with all it reached; running holds it till its end")
    func throttled() {
        let clock = TestClock()
        let heard = Heard()
        let sink = SyncProgress.Sink(interval: 1, now: { clock.now }) { heard.append($0) }
        let run = sink.begin("items")
        #expect(heard.all == [SyncProgress(endpoint: "items", startedAt: clock.now)])
        run.received(bytes: 100)
        run.pageEnded(records: 10, totalRecords: 40, totalPages: nil)
        run.received(bytes: 20)
        #expect(heard.all.count == 1, "within the interval, nothing more is heard")
        var reached = SyncProgress(endpoint: "items", startedAt: clock.now)
        (reached.pages, reached.records, reached.bytes, reached.totalRecords) = (1, 10, 120, 40)
        #expect(sink.running == [reached])
        clock.advance(by: 1)
        run.received(bytes: 30)
        reached.bytes = 150
        #expect(heard.all.count == 2 && heard.all.last == reached)
        run.parents(done: 3, total: 10)
        #expect(heard.all.count == 2)
        #expect(sink.running.first?.parentsDone == 3 && sink.running.first?.parentsTotal == 10)
        run.end()
        #expect(sink.running.isEmpty)
    }

    @Test("the rate and the time left come from the injected time: parents first, then records, then pages")
    func estimates() {
        var progress = SyncProgress(endpoint: "items", startedAt: 1_000)
        #expect(progress.secondsLeft(at: 1_002) == nil && progress.recordsPerSecond(at: 1_002) == nil)
        (progress.pages, progress.totalPages, progress.bytes) = (2, 10, 2048)
        #expect(progress.secondsLeft(at: 1_002) == 8)
        #expect(progress.summary(at: 1_002) == "2 of 10 pages, 2 KiB, 1 KiB/s, about 8s left")
        (progress.records, progress.totalRecords) = (10, 40)
        #expect(progress.recordsPerSecond(at: 1_002) == 5 && progress.secondsLeft(at: 1_002) == 6)
        #expect(progress.summary(at: 1_002) == "2 of 10 pages, 10 of 40 records, 2 KiB, 5 records/s, about 6s left")
        (progress.parentsDone, progress.parentsTotal) = (1, 5)
        #expect(progress.secondsLeft(at: 1_002) == 8)
        #expect(progress.summary(at: 1_000) == "1 of 5 parents, 2 of 10 pages, 10 of 40 records, 2 KiB")
        // Counts past their total (the collection grew during the walk) leave nothing negative.
        progress.parentsDone = 9
        #expect(progress.secondsLeft(at: 1_002) == 0)
    }

    /// Syncs the endpoint `issues` at `path` of an upstream that answers with `answer`, with every update heard (an
    /// interval of 0, on the fixture's clock): the summary, what was heard, and what the sink lists as running after.
    static func heardSync(
        _ path: String, answer: @escaping @Sendable (UpstreamRequest) -> UpstreamResponse,
        records: String, key: String, pagination: String
    ) async throws -> (report: SyncSummary, heard: [SyncProgress], running: [SyncProgress]) {
        try await withTestUpstream { upstream in
            upstream.route(String(path.prefix { $0 != "?" }), answer)
            let fixture = try SyncFixture(
                toml: PaginationRealAPIsTests.toml(
                    name: "issues", url: upstream.url(path), records: records, key: key, pagination: pagination))
            let heard = Heard()
            let sink = SyncProgress.Sink(interval: 0, now: { fixture.clock.now }) { heard.append($0) }
            var engine = fixture.engine
            engine.progress = sink
            let report = await engine.sync(try fixture.endpoint("issues"))
            return (report, heard.all, sink.running)
        }
    }

    @Test("a paged sync reports each page's records and the total at total_path, and bytes as the summary counts them")
    func totalPath() async throws {
        let jira =
            #"{ type = "offset", param = "startAt", limit_param = "maxResults", limit = 2, total_path = "total" }"#
        let (report, heard, running) = try await Self.heardSync(
            "/rest/api/2/search", answer: { JiraSearch.answer($0, count: 5) }, records: "issues", key: "key",
            pagination: jira)
        #expect(report.outcome == .changed && report.pages == 3, "\(report)")
        let pages = heard.filter { $0.pages > 0 }.map { [$0.pages, $0.records ?? -1, $0.totalRecords ?? -1] }
        #expect(pages.first == [1, 2, 5] && pages.last == [3, 5, 5], "\(pages)")
        #expect(heard.last?.bytes == report.bytes)
        #expect(running.isEmpty)
    }

    @Test("a Link walk reports the pages rel=last announces, and no record count where it reads only first records")
    func relLast() async throws {
        let walk = try await Self.heardSync(
            "/repos/o/r/issues?per_page=3", answer: { GitHubIssues.answer($0, count: 7) }, records: "$",
            key: "title", pagination: #"{ type = "link" }"#)
        #expect(walk.report.outcome == .changed && walk.report.inserted == 7, "\(walk.report)")
        let pages = walk.heard.filter { $0.pages > 0 }
        #expect(pages.map(\.pages).last == 3 && pages.allSatisfy { $0.totalPages == 3 }, "\(pages)")
        #expect(pages.allSatisfy { $0.records == nil }, "\(pages)")
    }

    @Test(
        "rel=last's page count: the parameter rel=next numbers the following page with",
        arguments: [
            ("https://a/i?page=2&per_page=3", "https://a/i?per_page=3&page=40", 1, 40),
            ("https://a/i?per_page=3&page=3", "https://a/i?per_page=3&page=3", 2, 3),
            ("https://a/i?startAt=50", "https://a/i?startAt=950", 1, nil),
            ("https://a/i?page=2", "https://a/i?page=many", 1, nil),
            ("https://a/i?cursor=x", "https://a/i?page=9", 1, nil),
        ] as [(String, String, Int, Int?)])
    func announcedPageCount(next: String, last: String, fetched: Int, expected: Int?) {
        #expect(PageURL.announcedPageCount(last: last, next: next, fetched: fetched) == expected)
    }
}
