import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// Each kind of pagination walks every page into one snapshot, sending what the upstream expects.
@Suite("sync: pagination kinds")
struct PaginationTests {
    static func toml(_ url: String, records: String = "data", pagination: String, extra: String = "") -> String {
        """
        [[endpoint]]
        name = "users"
        url = "\(url)"
        records = "\(records)"
        primary_key = ["id"]
        pagination = \(pagination)
        \(extra)

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        name = "name"
        """
    }

    static func storedIDs(_ fixture: SyncFixture) throws -> [Int64] {
        try fixture.rows("SELECT id FROM users ORDER BY id").compactMap { $0.integer("id") }
    }

    static func pagesColumn(_ fixture: SyncFixture) throws -> Int64? {
        try fixture.rows("SELECT pages FROM syncd_runs ORDER BY id DESC LIMIT 1").first?.integer("pages")
    }

    @Test("link: relative and absolute targets, several links in a field, several fields, rel lists")
    func link() async throws {
        try await withTestUpstream { upstream in
            let base = upstream.url("/users")
            upstream.route("/users") { request in
                let page = Int(request.query["page"] ?? "1") ?? 1
                let body = #"{"data": \#(pageRecords(page, size: 2, total: 7))}"#
                let links: [(name: String, value: String)] =
                    switch page {
                    // A relative target, with prev and last links around it in the same field.
                    case 1: [("Link", #"</users?page=4>; rel="last", </users?page=2>; rel="next""#)]
                    // An absolute target in the second of two Link fields, in a rel list.
                    case 2: [("Link", #"</users?page=1>; rel=prev"#), ("Link", "<\(base)?page=3>; rel=\"next last\"")]
                    // A relative target without a leading slash, and a target holding a comma and a semicolon.
                    case 3: [("Link", #"<users?page=4&x=a,b;c>; title="a, b; c"; rel=NEXT"#)]
                    default: [("Link", #"</users?page=1>; rel="first""#)]
                    }
                return jsonAnswer(body, headers: links)
            }
            let fixture = try SyncFixture(toml: Self.toml(base, pagination: #"{ type = "link" }"#))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.inserted == 7 && report.pages == 4)
            #expect(try Self.storedIDs(fixture) == Array(1...7))
            #expect(try Self.pagesColumn(fixture) == 4)
            #expect(
                upstream.requests.map(\.uri) == ["/users", "/users?page=2", "/users?page=3", "/users?page=4&x=a,b;c"])
        }
    }

    @Test("cursor: the cursor at its path is sent as the parameter, replacing the one already in the URL")
    func cursor() async throws {
        try await withTestUpstream { upstream in
            let pagination = #"{ type = "cursor", cursor_path = "meta.next", param = "cursor" }"#
            let fixture = try SyncFixture(
                toml: Self.toml(upstream.url("/users?cursor=start&x=1"), pagination: pagination)
            )
            upstream.route("/users") { request in
                switch request.query["cursor"] {
                case "start": jsonAnswer(#"{"data": \#(recordsJSON(1...2)), "meta": {"next": "c+2/="}}"#)
                case "c+2/=":
                    jsonAnswer(#"{"meta": {"skip": [1, {"next": "no"}], "next": 3}, "data": \#(recordsJSON(3...4))}"#)
                case "3": jsonAnswer(#"{"data": \#(recordsJSON(5...5)), "meta": {"next": null}}"#)
                default: jsonAnswer("{}", status: 404)
                }
            }
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.pages == 3)
            #expect(try Self.storedIDs(fixture) == Array(1...5))
            #expect(
                upstream.requests.map(\.uri) == [
                    "/users?cursor=start&x=1", "/users?cursor=c%2B2%2F%3D&x=1", "/users?cursor=3&x=1",
                ])
        }
    }

    @Test("next_url: the URL at its path, relative or absolute")
    func nextURL() async throws {
        try await withTestUpstream { upstream in
            let base = upstream.url("/users")
            upstream.route("/users") { request in
                switch request.query["p"] {
                case nil: jsonAnswer(#"{"links": {"next": "/users?p=2"}, "data": \#(recordsJSON(1...2))}"#)
                case "2": jsonAnswer(#"{"data": \#(recordsJSON(3...4)), "links": {"next": "\#(base)?p=3"}}"#)
                default: jsonAnswer(#"{"data": \#(recordsJSON(5...6)), "links": {"self": "x"}}"#)
                }
            }
            let fixture = try SyncFixture(
                toml: Self.toml(base, pagination: #"{ type = "next_url", path = "links.next" }"#))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.pages == 3)
            #expect(try Self.storedIDs(fixture) == Array(1...6))
        }
    }

    @Test("page: numbers from start with the size parameter; a short page is the last")
    func page() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/users") { request in
                let page = Int(request.query["page"] ?? "") ?? -1
                let size = Int(request.query["per_page"] ?? "") ?? -1
                return jsonAnswer(#"{"data": \#(pageRecords(page + 1, size: size, total: 7))}"#)
            }
            let pagination = #"{ type = "page", param = "page", start = 0, size_param = "per_page", size = 3 }"#
            let fixture = try SyncFixture(toml: Self.toml(upstream.url("/users"), pagination: pagination))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed && report.pages == 3)
            #expect(try Self.storedIDs(fixture) == Array(1...7))
            #expect(
                upstream.requests.map(\.uri) == [
                    "/users?page=0&per_page=3", "/users?page=1&per_page=3", "/users?page=2&per_page=3",
                ])
        }
    }

    @Test("offset: offsets stepping by the limit; a short page is the last")
    func offset() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/users") { request in
                let offset = Int(request.query["offset"] ?? "") ?? -1
                let limit = Int(request.query["limit"] ?? "") ?? -1
                return jsonAnswer(#"{"data": \#(recordsJSON((offset + 1)..<min(9, offset + 1 + limit)))}"#)
            }
            let pagination = #"{ type = "offset", param = "offset", limit_param = "limit", limit = 4 }"#
            let fixture = try SyncFixture(toml: Self.toml(upstream.url("/users"), pagination: pagination))
            let report = try await fixture.sync("users")
            // 8 records, 4 a page: the third page is empty, and ends the walk.
            #expect(report.outcome == .changed && report.pages == 3)
            #expect(try Self.storedIDs(fixture) == Array(1...8))
            #expect(
                upstream.requests.map(\.uri) == [
                    "/users?offset=0&limit=4", "/users?offset=4&limit=4", "/users?offset=8&limit=4",
                ])
        }
    }

    @Test("a snapshot over pages deletes the rows no page holds any more, and keeps the rest")
    func snapshotAcrossPages() async throws {
        try await withTestUpstream { upstream in
            upstream.route("/users") { request in
                let page = Int(request.query["page"] ?? "") ?? 1
                // The second walk: 5 is gone and 10 came, on the same page.
                let replaced = upstream.requests.count > 4
                let ids = ((page - 1) * 3 + 1)..<min(10, page * 3 + 1)
                return jsonAnswer(#"{"data": \#(recordsJSON(ids.map { replaced && $0 == 5 ? 10 : $0 }))}"#)
            }
            let pagination = #"{ type = "page", param = "page", size_param = "n", size = 3 }"#
            let fixture = try SyncFixture(toml: Self.toml(upstream.url("/users"), pagination: pagination))
            let first = try await fixture.sync("users")
            #expect(first.inserted == 9 && first.pages == 4)
            let second = try await fixture.sync("users")
            #expect(second.outcome == .changed && second.inserted == 1 && second.deleted == 1 && second.pages == 4)
            #expect(try Self.storedIDs(fixture) == [1, 2, 3, 4, 6, 7, 8, 9, 10])
            #expect(try fixture.scalar("SELECT count(*) FROM syncd_tombstones") == .integer(1))
        }
    }
}
