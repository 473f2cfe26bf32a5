import Foundation
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// A paginated run is all or nothing: a failed page (after the run's retries) keeps the previous data, a page
/// retried within the run is fetched again whole, and only the first request is conditional.
@Suite("sync: pagination failures and validators")
struct PaginationFailureTests {
    static let pagination = #"{ type = "page", param = "page", size = 2 }"#

    /// Five pages of two records (ids 1…10, names carrying `generation`), each page's faults from `faults`.
    static func serveFivePages(_ upstream: TestUpstream, faults: PageFaults, generation: SharedValue<Int>) {
        upstream.route("/users") { request in
            let page = Int(request.query["page"] ?? "") ?? 1
            if let fault = faults.answer(page: page) { return fault }
            let suffix = generation.value
            let first = (page - 1) * 2 + 1
            let ids = page <= 5 ? [first, first + 1] : []
            let records = ids.map { #"{"id": \#($0), "name": "g\#(suffix)"}"# }.joined(separator: ",")
            return jsonAnswer(#"{"data": [\#(records)]}"#)
        }
    }

    @Test("page 3 of 5 failing once is fetched again within the run; the run applies all five pages")
    func pageFailsOnce() async throws {
        try await withTestUpstream { upstream in
            let faults = PageFaults()
            Self.serveFivePages(upstream, faults: faults, generation: SharedValue(1))
            faults.fail(page: 3, with: [jsonAnswer("{}", status: 503)])
            let fixture = try SyncFixture(
                toml: PaginationTests.toml(upstream.url("/users"), pagination: Self.pagination))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.inserted == 10 && report.pages == 6)
            #expect(faults.requests(forPage: 3) == 2 && faults.requests(forPage: 4) == 1)
            #expect(fixture.sleeps.durations.count == 1)
        }
    }

    @Test("a body cut off in the middle of page 3 is dropped from the spool and fetched again whole")
    func pageTruncatedOnce() async throws {
        try await withTestUpstream { upstream in
            let faults = PageFaults()
            Self.serveFivePages(upstream, faults: faults, generation: SharedValue(1))
            let whole = Array(#"{"data": [{"id": 5, "name": "g1"},{"id": 6, "name": "g1"}]}"#.utf8)
            faults.fail(
                page: 3, with: [UpstreamResponse(status: 200, body: whole, delivery: .truncated(afterBytes: 30))])
            let fixture = try SyncFixture(
                toml: PaginationTests.toml(upstream.url("/users"), pagination: Self.pagination))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.inserted == 10, "\(report.error ?? "")")
            #expect(try fixture.scalar("SELECT count(*) FROM users WHERE _raw LIKE '%g1%'") == .integer(10))
        }
    }

    @Test("a 429 on page 2 waits for its Retry-After through the injected sleep, then goes on")
    func rateLimitedPage() async throws {
        try await withTestUpstream { upstream in
            let faults = PageFaults()
            Self.serveFivePages(upstream, faults: faults, generation: SharedValue(1))
            faults.fail(page: 2, with: [jsonAnswer("{}", status: 429, headers: [("Retry-After", "7")])])
            let fixture = try SyncFixture(
                toml: PaginationTests.toml(upstream.url("/users"), pagination: Self.pagination))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.inserted == 10)
            #expect(fixture.sleeps.durations == [.seconds(7)])
        }
    }

    @Test("page 3 of 5 failing after the run's retries fails the run and leaves the previous data untouched")
    func pageFailsForGood() async throws {
        try await withTestUpstream { upstream in
            let faults = PageFaults()
            let generation = SharedValue(1)
            Self.serveFivePages(upstream, faults: faults, generation: generation)
            let fixture = try SyncFixture(
                toml: PaginationTests.toml(upstream.url("/users"), pagination: Self.pagination, extra: "retries = 1"))
            let first = try await fixture.sync("users")
            #expect(first.outcome == .changed && first.inserted == 10)
            let before = try fixture.rows("SELECT id, _raw, _version FROM users ORDER BY id").map { "\($0.values)" }

            generation.value = 2
            faults.fail(page: 3, with: [jsonAnswer("{}", status: 500), jsonAnswer("{}", status: 500)])
            let report = try await fixture.sync("users")
            #expect(report.outcome == .failed)
            #expect(
                report.error == "users: page 3: HTTP 500 Internal Server Error from the upstream; kept the stored data")
            #expect(
                try fixture.rows("SELECT id, _raw, _version FROM users ORDER BY id").map { "\($0.values)" } == before)
            #expect(try PaginationTests.pagesColumn(fixture) == 3)
            #expect(faults.requests(forPage: 4) == 1, "nothing after the failed page was fetched")
        }
    }

    @Test("only the first page is conditional; its validators are the ones stored; a 304 there ends the run")
    func validators() async throws {
        try await withTestUpstream { upstream in
            let etag = SharedValue(#""v1""#)
            upstream.route("/users") { request in
                let page = Int(request.query["page"] ?? "") ?? 1
                let current = etag.value
                if page == 1, request.header("If-None-Match") == current {
                    return UpstreamResponse(status: 304, headers: [("ETag", current)])
                }
                let pageTag = page == 1 ? current : #""page-\#(page)""#
                return jsonAnswer(
                    #"{"data": \#(pageRecords(page, size: 2, total: 3))}"#,
                    headers: [("ETag", pageTag), ("Last-Modified", "Sun, 0\(page) Nov 2026 08:00:00 GMT")])
            }
            let fixture = try SyncFixture(
                toml: PaginationTests.toml(upstream.url("/users"), pagination: Self.pagination))
            _ = try await fixture.sync("users")
            etag.value = #""v2""#
            let changed = try await fixture.sync("users")
            #expect(changed.pages == 2)
            let conditional = upstream.requests.map { $0.header("If-None-Match") }
            #expect(conditional == [nil, nil, #""v1""#, nil])
            let sinceDates = upstream.requests.map { $0.header("If-Modified-Since") }
            #expect(sinceDates == [nil, nil, "Sun, 01 Nov 2026 08:00:00 GMT", nil])
            let state = try #require(fixture.rows("SELECT etag, last_modified FROM syncd_endpoints").first)
            #expect(state.text("etag") == #""v2""# && state.text("last_modified") == "Sun, 01 Nov 2026 08:00:00 GMT")

            let notModified = try await fixture.sync("users")
            #expect(notModified.outcome == .notModified && notModified.pages == 1)
            #expect(upstream.requests.count == 5)
            #expect(try PaginationTests.pagesColumn(fixture) == 1)
        }
    }
}
