import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore

/// A walk that ends while the upstream still announces more fails the run and keeps the stored rows: `has_more`
/// true on the last page, a `Link` `rel="last"` not reached, a `total_path` count not reached.
@Suite("sync: pagination that ends early")
struct PaginationIncompleteTests {
    /// Stores 300 records from three full pages, then lets `later` answer pages 2 and 3 of the next run.
    static func storeThenBreak(
        pagination: String, page: @escaping @Sendable (_ number: Int, _ broken: Bool) -> UpstreamResponse,
        expect message: String
    ) async throws {
        try await withTestUpstream { upstream in
            let broken = SharedValue(false)
            upstream.route("/users") { request in
                page(Int(request.query["page"] ?? "1") ?? 1, broken.value)
            }
            let fixture = try SyncFixture(toml: PaginationTests.toml(upstream.url("/users"), pagination: pagination))
            let first = try await fixture.sync("users")
            #expect(first.outcome == .changed && first.inserted == 300, "\(first.error ?? "")")
            let before = try fixture.rows("SELECT * FROM users ORDER BY id")

            broken.value = true
            let report = try await fixture.sync("users")
            #expect(report.outcome == .failed)
            #expect(report.error == "users: \(message); kept the stored data")
            #expect(try fixture.rows("SELECT * FROM users ORDER BY id") == before)
        }
    }

    static func records(_ number: Int) -> String { pageRecords(number, size: 100, total: 300) }

    @Test("an empty page while has_more says true fails the run")
    func hasMoreOnEmptyPage() async throws {
        try await Self.storeThenBreak(
            pagination: #"{ type = "page", param = "page", has_more_path = "more" }"#,
            page: { number, broken in
                let records = broken && number == 2 ? "[]" : Self.records(number)
                return jsonAnswer(#"{"data": \#(records), "more": \#(number < 3)}"#)
            },
            expect: "the pages ended at page 2 while has_more_path (more) says true: the upstream announces more")
    }

    @Test("a short page while has_more says true fails the run")
    func hasMoreOnShortPage() async throws {
        try await Self.storeThenBreak(
            pagination: #"{ type = "page", param = "page", size = 100, has_more_path = "meta.has_more" }"#,
            page: { number, broken in
                let records = broken && number == 1 ? recordsJSON(1...50) : Self.records(number)
                return jsonAnswer(#"{"data": \#(records), "meta": {"has_more": \#(number < 3)}}"#)
            },
            expect:
                "the pages ended at page 1 while has_more_path (meta.has_more) says true: the upstream announces more")
    }

    @Test("a Link rel=last announced but not reached fails the run: no Link on page 2")
    func lastNotReached() async throws {
        try await Self.storeThenBreak(
            pagination: #"{ type = "link" }"#,
            page: { number, broken in
                var links: [(name: String, value: String)] = []
                if number == 1 { links = [("Link", #"</users?page=2>; rel="next", </users?page=3>; rel="last""#)] }
                if number == 2, !broken { links = [("Link", #"</users?page=3>; rel="next""#)] }
                return jsonAnswer(#"{"data": \#(Self.records(number))}"#, headers: links)
            },
            expect: #"the pages ended at page 2 before the page that Link rel="last" announced was reached"#)
    }

    @Test("a count at total_path not reached fails the run")
    func totalNotReached() async throws {
        try await Self.storeThenBreak(
            pagination: #"{ type = "cursor", cursor_path = "next", param = "page", total_path = "meta.total" }"#,
            page: { number, broken in
                let next = number < 3 && !(broken && number == 1) ? #""\#(number + 1)""# : "null"
                return jsonAnswer(#"{"data": \#(Self.records(number)), "next": \#(next), "meta": {"total": 300}}"#)
            },
            expect: "the pages ended at page 1 with 100 records while total_path (meta.total) announces 300")
    }

    @Test("a count at total_path that is not a whole number fails the run")
    func totalNotACount() async throws {
        try await Self.storeThenBreak(
            pagination: #"{ type = "page", param = "page", total_path = "total" }"#,
            page: { number, broken in
                let records = number > 3 ? "[]" : Self.records(number)
                return jsonAnswer(#"{"data": \#(records), "total": \#(broken ? "\"many\"" : "300")}"#)
            },
            expect: "page 1: the value at total_path (total) is not a whole number of records")
    }

    @Test("a walk that reaches rel=last and the total, with has_more false, applies")
    func complete() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/users") { request in
                let number = Int(request.query["page"] ?? "1") ?? 1
                var links: [(name: String, value: String)] = []
                if number < 3 {
                    links = [("Link", #"</users?page=\#(number + 1)>; rel="next", </users?page=3>; rel="last""#)]
                }
                return jsonAnswer(
                    #"{"data": \#(Self.records(number)), "more": \#(number < 3), "total": 300}"#, headers: links)
            }
            let pagination = #"{ type = "link", has_more_path = "more", total_path = "total" }"#
            let fixture = try SyncFixture(toml: PaginationTests.toml(upstream.url("/users"), pagination: pagination))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.inserted == 300 && report.pages == 3)
        }
    }
}
