import Foundation
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// When only whether a page is empty decides the next one (link pagination without has_more_path or total_path, page
/// numbers without a size), the fetch reads each page up to its first record and the transaction reads the rest: a
/// page that does not decode past its first record still fails the run, naming the page, and keeps the stored data.
@Suite("sync: pages read up to their first record")
struct PaginationFirstRecordTests {
    static let link = #"{ type = "link" }"#

    /// Three pages of two records linked by `Link` rel="next"; page 2's body is `brokenPage` when set.
    static func serveThreePages(_ upstream: TestUpstream, brokenPage: SharedValue<String?>) {
        upstream.route("/users") { request in
            let page = Int(request.query["page"] ?? "") ?? 1
            let next: [(name: String, value: String)] =
                page < 3 ? [("Link", "</users?page=\(page + 1)>; rel=next")] : []
            if page == 2, let body = brokenPage.value { return jsonAnswer(body, headers: next) }
            let first = (page - 1) * 2 + 1
            return jsonAnswer(#"{"data": \#(recordsJSON([first, first + 1]))}"#, headers: next)
        }
    }

    @Test("the kinds where only an empty page ends the walk are read up to the first record; the others are counted")
    func whichKinds() throws {
        let path = try JSONPath(parsing: "meta.next")
        let counted: [PaginationConfiguration] = [
            PaginationConfiguration(kind: .page(param: "page", start: 1, sizeParam: "n", size: 2)),
            PaginationConfiguration(kind: .offset(param: "o", limitParam: nil, limit: 10)),
            PaginationConfiguration(kind: .nextURL(path: path)),
            PaginationConfiguration(kind: .cursor(path: path, from: .body, to: .query("cursor"))),
            PaginationConfiguration(kind: .cursor(path: path, from: .lastRecord, to: .query("cursor"))),
            PaginationConfiguration(kind: .link, totalPath: path),
            PaginationConfiguration(kind: .link, hasMorePath: path),
        ]
        #expect(PaginationConfiguration(kind: .link).decidesOnlyByEmptiness)
        #expect(
            PaginationConfiguration(kind: .page(param: "page", start: 1, sizeParam: nil, size: nil))
                .decidesOnlyByEmptiness)
        for pagination in counted { #expect(!pagination.decidesOnlyByEmptiness, "\(pagination)") }
    }

    @Test("a page that breaks after its first record fails the run with the page's number and keeps the stored data")
    func brokenAfterFirstRecord() async throws {
        try await withTestUpstream { upstream in
            let broken = SharedValue<String?>(nil)
            Self.serveThreePages(upstream, brokenPage: broken)
            let fixture = try SyncFixture(toml: PaginationTests.toml(upstream.url("/users"), pagination: Self.link))
            let first = try await fixture.sync("users")
            #expect(first.outcome == .changed && first.inserted == 6)
            let before = try fixture.rows("SELECT id, _raw, _version FROM users ORDER BY id").map { "\($0.values)" }

            broken.value = #"{"data": [{"id": 3, "name": "user 3"}, {"id": 4, "name": ]}"#
            let report = try await fixture.sync("users")
            #expect(report.outcome == .failed)
            #expect(
                report.error
                    == "users: page 2: the response is not valid JSON: at byte 57 (line 1, column 58) expected a value, "
                    + #"found "]"; kept the stored data"#)
            #expect(
                try fixture.rows("SELECT id, _raw, _version FROM users ORDER BY id").map { "\($0.values)" } == before)
        }
    }

    @Test("a walk of one page names it too, whether the body was stored as it arrived or after")
    func onePageNamed() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/users") { _ in jsonAnswer(#"{"data": [{"id": 1, "name": "a"}, {"id": 2, ]}"#) }
            let fixture = try SyncFixture(toml: PaginationTests.toml(upstream.url("/users"), pagination: Self.link))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .failed)
            #expect(report.error?.hasPrefix("users: page 1: the response is not valid JSON: at byte 44") == true)
        }
    }

    @Test("an empty page still ends the walk, though its Link announces another")
    func emptyPageEnds() async throws {
        try await withTestUpstream { upstream in
            let broken = SharedValue<String?>(#"{"data": []}"#)
            Self.serveThreePages(upstream, brokenPage: broken)
            let fixture = try SyncFixture(toml: PaginationTests.toml(upstream.url("/users"), pagination: Self.link))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.inserted == 2 && report.pages == 2)
            #expect(upstream.requests.count == 2, "page 3 was not fetched")
        }
    }

    @Test("a page that is not JSON at all fails at that page, before the next is fetched")
    func notJSONFailsAtOnce() async throws {
        try await withTestUpstream { upstream in
            let broken = SharedValue<String?>("<html>")
            Self.serveThreePages(upstream, brokenPage: broken)
            let fixture = try SyncFixture(toml: PaginationTests.toml(upstream.url("/users"), pagination: Self.link))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .failed)
            #expect(report.error?.hasPrefix("users: page 2: the response is not valid JSON") == true, "\(report)")
            #expect(upstream.requests.count == 2, "page 3 was not fetched")
        }
    }
}
