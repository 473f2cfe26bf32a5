import Testing

@testable import SyncCore
@testable import SyncHTTP

/// What the upstream announces about the rest of the walk — `rel="last"`, a total count, `has_more` — decides
/// whether a walk that ends is complete.
@Suite("pagination: the page walker and what the upstream announces")
struct PageWalkerAnnouncementTests {
    static let base = "https://api.example/users"

    static func page(_ url: String, records: Int = 2, links: [String] = [], captured: [JSONPath: CapturedValue] = [:])
        -> PageWalker.Page
    {
        var page = PageWalker.Page(url: url, records: records)
        page.links = links
        page.captured = captured
        return page
    }

    @Test("the latest rel=last counts: a collection that grew during the walk must be read to its new end")
    func latestLast() {
        var walker = PageWalker(pagination: PaginationConfiguration(kind: .link), url: Self.base)
        #expect(
            walker.next(after: Self.page(Self.base, links: [#"</users?p=2>; rel=next, </users?p=2>; rel=last"#]))
                == .next(Self.base + "?p=2"))
        #expect(
            walker.next(after: Self.page(Self.base + "?p=2", links: [#"</users?p=3>; rel="next last""#]))
                == .next(Self.base + "?p=3"))
        #expect(walker.next(after: Self.page(Self.base + "?p=3", links: [#"</users?p=4>; rel=last"#])) != .done)

        var reached = PageWalker(pagination: PaginationConfiguration(kind: .link), url: Self.base)
        _ = reached.next(after: Self.page(Self.base, links: [#"</users?p=2>; rel=next, </users?p=2>; rel=last"#]))
        #expect(reached.next(after: Self.page(Self.base + "?p=2", links: [#"</users?p=2>; rel=last"#])) == .done)
    }

    @Test("rel=last is only read for the link kind")
    func lastOnlyForLinks() {
        let pagination = PaginationConfiguration(kind: .page(param: "p", start: 1, sizeParam: nil, size: nil))
        var walker = PageWalker(pagination: pagination, url: Self.base)
        #expect(walker.next(after: Self.page(walker.firstURL, records: 0, links: ["</x?p=9>; rel=last"])) == .done)
    }

    @Test("a total is a number or a string of digits; more records than announced is complete")
    func totals() throws {
        let total = try JSONPath(parsing: "total")
        let pagination = PaginationConfiguration(kind: .link, totalPath: total)
        var text = PageWalker(pagination: pagination, url: Self.base)
        #expect(
            text.next(after: Self.page(Self.base, records: 2, captured: [total: .string("3")]))
                == .failure("the pages ended at page 1 with 2 records while total_path (total) announces 3"))
        var more = PageWalker(pagination: pagination, url: Self.base)
        #expect(more.next(after: Self.page(Self.base, records: 5, captured: [total: .number("3")])) == .done)
        for value: CapturedValue in [.number("-1"), .number("3.0"), .number("1e400"), .bool(true), .null] {
            var walker = PageWalker(pagination: pagination, url: Self.base)
            #expect(
                walker.next(after: Self.page(Self.base, captured: [total: value]))
                    == .failure("page 1: the value at total_path (total) is not a whole number of records"))
        }
    }

    @Test("has_more true fails a walk that ends for want of a next cursor too")
    func hasMoreWithoutCursor() throws {
        let cursor = try JSONPath(parsing: "next")
        let more = try JSONPath(parsing: "more")
        var walker = PageWalker(
            pagination: PaginationConfiguration(
                kind: .cursor(path: cursor, from: .body, to: .query("c")), hasMorePath: more),
            url: Self.base)
        #expect(
            walker.next(after: Self.page(Self.base, captured: [more: .bool(true)]))
                == .failure(
                    "the pages ended at page 1 while has_more_path (more) says true: the upstream announces more"))
    }
}
