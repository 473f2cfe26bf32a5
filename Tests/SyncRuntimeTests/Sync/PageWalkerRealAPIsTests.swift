import Testing

@testable import SyncCore
@testable import SyncHTTP

/// The stop rules for the paging real APIs send (issue 43): a cursor that stays the same, a walk that reaches the
/// announced total, a last-page flag, and a `rel="last"` naming the first page.
@Suite("pagination: the page walker and the paging real APIs send")
struct PageWalkerRealAPIsTests {
    static let base = "https://api.example/works"

    static func page(
        _ url: String, records: Int = 3, links: [String] = [], captured: [JSONPath: CapturedValue] = [:],
        repeatsPrevious: Bool = false
    ) -> PageWalker.Page {
        var page = PageWalker.Page(url: url, records: records)
        page.links = links
        page.captured = captured
        page.repeatsPrevious = repeatsPrevious
        return page
    }

    static func scroll(repeats: Bool, maxPages: Int = 1000) throws -> (PageWalker, JSONPath) {
        let path = try JSONPath(parsing: "message.next-cursor")
        let pagination = PaginationConfiguration(
            kind: .cursor(path: path, from: .body, to: .query("cursor"), repeats: repeats), maxPages: maxPages)
        return (PageWalker(pagination: pagination, url: base + "?rows=3&cursor=*"), path)
    }

    @Test("repeat_cursor: the same cursor page after page replaces the URL's cursor=*; an empty page ends the walk")
    func repeatCursor() throws {
        var (walker, path) = try Self.scroll(repeats: true)
        #expect(walker.firstURL == Self.base + "?rows=3&cursor=*")
        let next = Self.base + "?rows=3&cursor=DnF1%2B%2F1%3D"
        #expect(walker.next(after: Self.page(walker.firstURL, captured: [path: .string("DnF1+/1=")])) == .next(next))
        #expect(walker.next(after: Self.page(next, captured: [path: .string("DnF1+/1=")])) == .next(next))
        #expect(walker.next(after: Self.page(next, records: 1, captured: [path: .string("DnF1+/1=")])) == .next(next))
        #expect(walker.next(after: Self.page(next, records: 0, captured: [path: .string("DnF1+/1=")])) == .done)
        #expect(walker.pageCount == 4)
    }

    @Test("without repeat_cursor the repeated scroll id is a loop, as before")
    func repeatedCursorWithoutTheOption() throws {
        var (walker, path) = try Self.scroll(repeats: false)
        let next = Self.base + "?rows=3&cursor=s1"
        #expect(walker.next(after: Self.page(walker.firstURL, captured: [path: .string("s1")])) == .next(next))
        #expect(
            walker.next(after: Self.page(next, captured: [path: .string("s1")]))
                == .failure("page 2 repeats an earlier cursor at message.next-cursor: the pagination loops"))
    }

    @Test("repeat_cursor still refuses a page byte-identical to the one before, and stops at max_pages")
    func repeatCursorRunaway() throws {
        var (identical, path) = try Self.scroll(repeats: true)
        let next = Self.base + "?rows=3&cursor=s1"
        _ = identical.next(after: Self.page(identical.firstURL, captured: [path: .string("s1")]))
        #expect(
            identical.next(after: Self.page(next, captured: [path: .string("s1")], repeatsPrevious: true))
                == .failure("page 2 is byte-identical to page 1: the pagination loops"))
        var (capped, _) = try Self.scroll(repeats: true, maxPages: 2)
        _ = capped.next(after: Self.page(capped.firstURL, captured: [path: .string("s1")]))
        #expect(
            capped.next(after: Self.page(next, captured: [path: .string("s1")]))
                == .failure("max_pages (2) pages were fetched and the upstream announces more; raise max_pages"))
    }

    @Test("repeat_cursor with a cursor sent in the body asks the same URL with the same body until an empty page")
    func repeatCursorInTheBody() throws {
        let path = try JSONPath(parsing: "_scroll_id")
        let pagination = PaginationConfiguration(
            kind: .cursor(path: path, from: .body, to: .body(try JSONPath(parsing: "scroll_id")), repeats: true))
        var walker = PageWalker(pagination: pagination, url: Self.base)
        for _ in 1...3 {
            #expect(
                walker.next(after: Self.page(Self.base, captured: [path: .string("c1")]))
                    == .next(Self.base, bodyCursor: .string("c1")))
        }
        #expect(walker.next(after: Self.page(Self.base, records: 0, captured: [path: .string("c1")])) == .done)
    }

    static func jira(maxPages: Int = 1000, hasMore: JSONPath? = nil) throws -> (PageWalker, JSONPath) {
        let total = try JSONPath(parsing: "total")
        let pagination = PaginationConfiguration(
            kind: .offset(param: "startAt", limitParam: "maxResults", limit: 3), maxPages: maxPages,
            hasMorePath: hasMore, totalPath: total)
        return (PageWalker(pagination: pagination, url: "https://jira.example/rest/api/2/search"), total)
    }

    @Test("the total reached on a full page ends the walk: no page is asked past it, even at max_pages")
    func totalReached() throws {
        for maxPages in [1000, 2] {
            var (walker, total) = try Self.jira(maxPages: maxPages)
            let second = "https://jira.example/rest/api/2/search?startAt=3&maxResults=3"
            #expect(walker.next(after: Self.page(walker.firstURL, captured: [total: .number("6")])) == .next(second))
            #expect(walker.next(after: Self.page(second, captured: [total: .number("6")])) == .done)
        }
        var (one, total) = try Self.jira(maxPages: 1)
        #expect(one.next(after: Self.page(one.firstURL, captured: [total: .number("3")])) == .done)
        var (none, _) = try Self.jira()
        #expect(none.next(after: Self.page(none.firstURL, records: 0, captured: [total: .number("0")])) == .done)
    }

    @Test("a count that goes past the total, never equal to it, leaves the end to the other rules")
    func pastTheTotal() throws {
        var (walker, total) = try Self.jira()
        let second = "https://jira.example/rest/api/2/search?startAt=3&maxResults=3"
        let third = "https://jira.example/rest/api/2/search?startAt=6&maxResults=3"
        // Counted pages, not records: 3 records on page 1 never equal 2.
        #expect(walker.next(after: Self.page(walker.firstURL, captured: [total: .number("2")])) == .next(second))
        #expect(walker.next(after: Self.page(second, captured: [total: .number("2")])) == .next(third))
        #expect(walker.next(after: Self.page(third, records: 1, captured: [total: .number("2")])) == .done)
    }

    @Test("a walk that ends short of the total is still refused")
    func shortOfTotal() throws {
        var (walker, total) = try Self.jira()
        let second = "https://jira.example/rest/api/2/search?startAt=3&maxResults=3"
        #expect(walker.next(after: Self.page(walker.firstURL, captured: [total: .number("7")])) == .next(second))
        #expect(
            walker.next(after: Self.page(second, records: 0, captured: [total: .number("7")]))
                == .failure("the pages ended at page 2 with 3 records while total_path (total) announces 7"))
    }

    @Test("has_more true on the page that reaches the total goes on: the upstream's flag says more")
    func totalReachedWithMore() throws {
        let more = try JSONPath(parsing: "more")
        var (walker, total) = try Self.jira(hasMore: more)
        let second = "https://jira.example/rest/api/2/search?startAt=3&maxResults=3"
        #expect(
            walker.next(after: Self.page(walker.firstURL, captured: [total: .number("3"), more: .bool(true)]))
                == .next(second))
        #expect(
            walker.next(after: Self.page(second, records: 1, captured: [total: .number("4"), more: .bool(false)]))
                == .done)
    }

    static func bitbucket(cursor: Bool = true) throws -> (PageWalker, JSONPath, JSONPath) {
        let next = try JSONPath(parsing: "nextPageStart")
        let last = try JSONPath(parsing: "isLastPage")
        let kind: PaginationConfiguration.Kind =
            cursor
            ? .cursor(path: next, from: .body, to: .query("start"))
            : .offset(param: "start", limitParam: "limit", limit: 3)
        let pagination = PaginationConfiguration(kind: kind, lastPagePath: last)
        return (PageWalker(pagination: pagination, url: "https://bb.example/repos?limit=3"), next, last)
    }

    @Test("last_page_path: false goes on to the next page, true ends the walk even with a next page announced")
    func lastPage() throws {
        var (walker, next, last) = try Self.bitbucket()
        let second = "https://bb.example/repos?limit=3&start=3"
        #expect(
            walker.next(after: Self.page(walker.firstURL, captured: [next: .number("3"), last: .bool(false)]))
                == .next(second))
        #expect(walker.next(after: Self.page(second, captured: [next: .number("6"), last: .bool(true)])) == .done)
        var (offset, _, _) = try Self.bitbucket(cursor: false)
        #expect(offset.next(after: Self.page(offset.firstURL, captured: [last: .bool(true)])) == .done)
    }

    @Test("last_page_path false on the page where the walk ends fails the run")
    func lastPageFalse() throws {
        var (walker, _, last) = try Self.bitbucket()
        #expect(
            walker.next(after: Self.page(walker.firstURL, captured: [last: .bool(false)]))
                == .failure(
                    "the pages ended at page 1 while last_page_path (isLastPage) says false: the upstream announces more"
                ))
        var (empty, _, _) = try Self.bitbucket(cursor: false)
        #expect(
            empty.next(after: Self.page(empty.firstURL, records: 0, captured: [last: .bool(false)]))
                == .failure(
                    "the pages ended at page 1 while last_page_path (isLastPage) says false: the upstream announces more"
                ))
    }

    @Test("rel=last naming the first page, spelled ?page=1 while it was fetched bare, is reached")
    func lastIsTheFirstPage() {
        let issues = "https://api.example/repos/o/r/issues"
        for (first, last) in [
            (issues, issues + "?page=1"),
            (issues + "?per_page=100", issues + "?per_page=100&page=1"),
            (issues + "?per_page=100&state=all", issues + "?page=1&state=all&per_page=100"),
        ] {
            var walker = PageWalker(pagination: PaginationConfiguration(kind: .link), url: first)
            #expect(walker.next(after: Self.page(first, links: ["<\(last)>; rel=\"last\""])) == .done, "\(last)")
        }
        for (first, last) in [
            (issues, issues + "?page=2"),
            (issues + "?per_page=100", issues + "?per_page=50&page=1"),
            (issues + "?page=1", issues + "?page=1&page=1"),
            (issues, "https://api.example/repositories/7/issues?page=1"),
        ] {
            var walker = PageWalker(pagination: PaginationConfiguration(kind: .link), url: first)
            #expect(
                walker.next(after: Self.page(first, links: ["<\(last)>; rel=\"last\""]))
                    == .failure(
                        "the pages ended at page 1 before the page that Link rel=\"last\" announced was reached"),
                "\(last)")
        }
    }
}
