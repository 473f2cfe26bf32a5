import Foundation
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore

/// Each stop rule of pagination, on its own: the ones that end a walk, and the ones that fail the run because
/// the pages cannot be trusted to be complete (a loop, max_pages).
@Suite("sync: pagination stop rules")
struct PaginationStopTests {
    static let cursor = #"{ type = "cursor", cursor_path = "meta.next", param = "cursor" }"#

    enum NoNext: String, CaseIterable, CustomTestStringConvertible {
        case null = #""next": null"#
        case missing = #""other": 1"#
        case empty = #""next": """#
        var testDescription: String { rawValue }
    }

    @Test("no next cursor ends the walk: null, missing or an empty string", arguments: NoNext.allCases)
    func noNextCursor(_ noNext: NoNext) async throws {
        try await withTestUpstream { upstream in
            upstream.route("/users") { request in
                request.query["cursor"] == nil
                    ? jsonAnswer(#"{"data": \#(recordsJSON(1...2)), "meta": {"next": "b"}}"#)
                    : jsonAnswer(#"{"data": \#(recordsJSON(3...4)), "meta": {\#(noNext.rawValue)}}"#)
            }
            let fixture = try SyncFixture(toml: PaginationTests.toml(upstream.url("/users"), pagination: Self.cursor))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.pages == 2 && report.inserted == 4)
            #expect(upstream.requests.count == 2)
        }
    }

    @Test("no Link rel=next ends the walk, and so does an empty page that still links on")
    func emptyPage() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/users") { request in
                let page = Int(request.query["page"] ?? "1") ?? 1
                let records = page == 3 ? "[]" : recordsJSON([page])
                return jsonAnswer(#"{"data": \#(records)}"#, headers: [("Link", "</users?page=\(page + 1)>; rel=next")])
            }
            let fixture = try SyncFixture(
                toml: PaginationTests.toml(upstream.url("/users"), pagination: #"{ type = "link" }"#))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.pages == 3 && report.inserted == 2)
            #expect(upstream.requests.count == 3)
        }
    }

    @Test("a short page ends a page walk even when the upstream would answer more")
    func shortPage() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/users") { request in
                let page = Int(request.query["page"] ?? "") ?? 1
                return jsonAnswer(
                    #"{"data": \#(page == 2 ? recordsJSON(3...3) : pageRecords(page, size: 2, total: 9))}"#)
            }
            let pagination = #"{ type = "page", param = "page", size = 2 }"#
            let fixture = try SyncFixture(toml: PaginationTests.toml(upstream.url("/users"), pagination: pagination))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.pages == 2 && report.inserted == 3)
            #expect(upstream.requests.map(\.uri) == ["/users?page=1", "/users?page=2"])
        }
    }

    @Test("a has_more flag that is false ends the walk, whatever the cursor says")
    func hasMoreFalse() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/users") { request in
                let more = request.query["cursor"] == nil
                return jsonAnswer(
                    #"{"data": \#(recordsJSON(more ? [1] : [2])), "meta": {"next": "x", "more": \#(more)}}"#)
            }
            let pagination =
                #"{ type = "cursor", cursor_path = "meta.next", param = "cursor", has_more_path = "meta.more" }"#
            let fixture = try SyncFixture(toml: PaginationTests.toml(upstream.url("/users"), pagination: pagination))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.pages == 2 && report.inserted == 2)
        }
    }

    /// Syncs a good first walk, then makes the upstream loop: the run fails with `message` and keeps the rows.
    func expectLoopFails(
        pagination: String, message: String, pages: Int64,
        _ answer: @escaping @Sendable (UpstreamRequest, Bool) -> UpstreamResponse
    ) async throws {
        // Set between the two syncs, not read from a request count: the phase is the test's to say.
        let looping = Mutex(false)
        try await withTestUpstream { upstream in
            upstream.route("/users") { request in answer(request, looping.withLock { $0 }) }
            let fixture = try SyncFixture(toml: PaginationTests.toml(upstream.url("/users"), pagination: pagination))
            let good = try await fixture.sync("users")
            #expect(good.outcome == .changed && good.inserted == 2, "\(good.error ?? "")")
            looping.withLock { $0 = true }
            let report = try await fixture.sync("users")
            #expect(report.outcome == .failed)
            #expect(report.error == message)
            #expect(try PaginationTests.storedIDs(fixture) == [1, 2])
            #expect(try PaginationTests.pagesColumn(fixture) == pages)
        }
    }

    @Test("a repeated cursor fails the run: the pagination loops")
    func repeatedCursor() async throws {
        try await expectLoopFails(
            pagination: Self.cursor,
            message: "users: page 3 repeats an earlier cursor at meta.next: the pagination loops; kept the stored data",
            pages: 3
        ) { request, looping in
            switch request.query["cursor"] {
            case nil: jsonAnswer(#"{"data": \#(recordsJSON([1])), "meta": {"next": "a"}}"#)
            case "a": jsonAnswer(#"{"data": \#(recordsJSON([2])), "meta": {"next": \#(looping ? #""b""# : "null")}}"#)
            default: jsonAnswer(#"{"data": \#(recordsJSON([3])), "meta": {"next": "a"}}"#)
            }
        }
    }

    @Test("a Link back to a page already fetched fails the run: the pagination loops")
    func repeatedURL() async throws {
        try await expectLoopFails(
            pagination: #"{ type = "link" }"#,
            message: "users: page 2 leads back to a page already fetched: the pagination loops; kept the stored data",
            pages: 2
        ) { request, looping in
            request.query["page"] == nil
                ? jsonAnswer(#"{"data": \#(recordsJSON([1]))}"#, headers: [("Link", "</users?page=2>; rel=next")])
                : jsonAnswer(
                    #"{"data": \#(recordsJSON([2]))}"#, headers: looping ? [("Link", "</users>; rel=next")] : [])
        }
    }

    @Test("a page byte-identical to the one before fails the run: the upstream ignores the page parameter")
    func identicalPage() async throws {
        try await expectLoopFails(
            pagination: #"{ type = "page", param = "page" }"#,
            message: "users: page 2 is byte-identical to page 1: the pagination loops; kept the stored data",
            pages: 2
        ) { request, looping in
            looping || request.query["page"] == "1"
                ? jsonAnswer(#"{"data": \#(recordsJSON(1...2))}"#)
                : jsonAnswer(#"{"data": []}"#)
        }
    }

    @Test("reaching max_pages with more pages announced fails the run and stores nothing of it")
    func maxPages() async throws {
        try await expectLoopFails(
            pagination: #"{ type = "page", param = "page", max_pages = 3 }"#,
            message:
                "users: max_pages (3) pages were fetched and the upstream announces more; raise max_pages; kept the stored data",
            pages: 3
        ) { request, looping in
            let page = Int(request.query["page"] ?? "") ?? 1
            return !looping && page == 2
                ? jsonAnswer(#"{"data": []}"#)
                : jsonAnswer(#"{"data": \#(recordsJSON([page, page + 1].filter { looping || $0 <= 2 }))}"#)
        }
    }
}
