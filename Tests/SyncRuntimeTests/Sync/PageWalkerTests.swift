import Testing

@testable import SyncCore
@testable import SyncHTTP

/// The decisions of the pagination state machine that the loopback tests do not reach.
@Suite("pagination: the page walker")
struct PageWalkerTests {
    static let base = "https://api.example/users"

    static func page(records: Int = 2, links: [String] = [], captured: [JSONPath: CapturedValue] = [:])
        -> PageWalker.Page
    {
        var page = PageWalker.Page(url: base, records: records)
        page.links = links
        page.captured = captured
        return page
    }

    @Test("without pagination the first page is the last")
    func noPagination() {
        var walker = PageWalker(pagination: nil, url: Self.base)
        #expect(walker.firstURL == Self.base)
        #expect(walker.next(after: Self.page(links: ["</p2>; rel=next"])) == .done)
    }

    @Test("a next link or URL that is not http or https fails the run")
    func foreignSchemes() throws {
        var link = PageWalker(pagination: PaginationConfiguration(kind: .link), url: Self.base)
        #expect(
            link.next(after: Self.page(links: ["<file:///etc/passwd>; rel=next"]))
                == .failure("page 1's Link rel=\"next\" is not an http or https URL"))
        let path = try JSONPath(parsing: "next")
        var nextURL = PageWalker(pagination: PaginationConfiguration(kind: .nextURL(path: path)), url: Self.base)
        #expect(
            nextURL.next(after: Self.page(captured: [path: .string("ftp://x/y")]))
                == .failure("page 1's next URL at next is not an http or https URL"))
    }

    @Test("an overlong cursor fails the run rather than ending the walk early")
    func overlong() throws {
        let path = try JSONPath(parsing: "meta.next")
        var walker = PageWalker(
            pagination: PaginationConfiguration(kind: .cursor(path: path, from: .body, to: .query("c"))), url: Self.base
        )
        var page = Self.page()
        page.overlong = [path]
        #expect(walker.next(after: page) == .failure("page 1: the value at meta.next is longer than 64 KiB"))
    }

    @Test("has_more true or missing leaves the decision to the next link; a numeric cursor is sent as its literal")
    func hasMoreAndNumbers() throws {
        let cursor = try JSONPath(parsing: "next")
        let more = try JSONPath(parsing: "more")
        let pagination = PaginationConfiguration(
            kind: .cursor(path: cursor, from: .body, to: .query("after")), hasMorePath: more)
        var walker = PageWalker(pagination: pagination, url: Self.base)
        #expect(
            walker.next(after: Self.page(captured: [cursor: .number("42"), more: .bool(true)]))
                == .next(Self.base + "?after=42"))
        #expect(walker.next(after: Self.page(captured: [cursor: .number("43")])) == .next(Self.base + "?after=43"))
        #expect(walker.next(after: Self.page(captured: [cursor: .bool(true)])) == .done)
        #expect(walker.pageCount == 3)
    }

    @Test("a cursor from the last record: sent as the parameter; none there fails the run, has_more false ends it")
    func lastRecord() throws {
        let id = try JSONPath(parsing: "id")
        let more = try JSONPath(parsing: "has_more")
        let pagination = PaginationConfiguration(
            kind: .cursor(path: id, from: .lastRecord, to: .query("starting_after")), hasMorePath: more)
        var walker = PageWalker(pagination: pagination, url: Self.base + "?limit=2")
        var page = Self.page(captured: [more: .bool(true)])
        page.url = walker.firstURL
        page.lastRecordCursor = .string("cus_2")
        #expect(walker.next(after: page) == .next(Self.base + "?limit=2&starting_after=cus_2"))
        page.lastRecordCursor = .null
        #expect(
            walker.next(after: page)
                == .failure(
                    "page 2's last record has no string or number at cursor_path (id) to ask for the next page with"))
        var ended = PageWalker(pagination: pagination, url: Self.base)
        page.captured = [more: .bool(false)]
        #expect(ended.next(after: page) == .done, "has_more false ends the walk before the cursor is needed")
    }

    @Test("a cursor sent in the body asks the same URL again, with the cursor's JSON type")
    func bodyCursor() throws {
        let cursor = try JSONPath(parsing: "pageInfo.endCursor")
        let pagination = PaginationConfiguration(
            kind: .cursor(path: cursor, from: .body, to: .body(try JSONPath(parsing: "variables.after"))))
        var walker = PageWalker(pagination: pagination, url: Self.base)
        #expect(
            walker.next(after: Self.page(captured: [cursor: .string("Y3")]))
                == .next(Self.base, bodyCursor: .string("Y3")))
        #expect(
            walker.next(after: Self.page(captured: [cursor: .number("7")]))
                == .next(Self.base, bodyCursor: .number("7")))
        #expect(
            walker.next(after: Self.page(captured: [cursor: .string("Y3")]))
                == .failure("page 3 repeats an earlier cursor at pageInfo.endCursor: the pagination loops"))
        #expect(CapturedValue.string("a\"b").json == #""a\"b""# && CapturedValue.number("7").json == "7")
    }

    @Test("page and offset kinds start from their first page")
    func firstURLs() {
        let page = PaginationConfiguration(kind: .page(param: "p", start: 0, sizeParam: "n", size: 50))
        #expect(PageWalker(pagination: page, url: Self.base + "?p=9&q=x").firstURL == Self.base + "?p=0&q=x&n=50")
        let offset = PaginationConfiguration(kind: .offset(param: "o", limitParam: nil, limit: 20))
        #expect(PageWalker(pagination: offset, url: Self.base).firstURL == Self.base + "?o=0")
    }
}
