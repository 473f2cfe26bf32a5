package import SyncDecoding
package import SyncModel

/// Decides, page after page, where the next page of a collection is and when the last one has arrived: the stop
/// rules of ``PaginationConfiguration``, as a pure state machine that the engine feeds with each page's facts.
///
/// ```swift
/// var walker = PageWalker(pagination: endpoint.pagination, url: endpoint.url)
/// var url = walker.firstURL
/// while true {
///     let page = try await fetch(url)
///     switch walker.next(after: page) {
///     case .next(let nextURL): url = nextURL
///     case .done: return
///     case .failure(let sentence): throw Failure(sentence)
///     }
/// }
/// ```
package struct PageWalker {
    /// What comes after a page.
    package enum Decision: Equatable, Sendable {
        /// Fetch this URL, an absolute http or https URL; with a `bodyCursor`, the request's body holds it at
        /// `body_path` (the URL is then the page's own).
        case next(String, bodyCursor: CapturedValue? = nil)
        /// That page was the last.
        case done
        /// The pages cannot be trusted to be complete: a loop, `max_pages` reached with more announced, or the walk
        /// ended while the upstream still announces more.
        case failure(String)
    }

    /// What one page held, as far as pagination cares.
    package struct Page: Sendable {
        /// The URL the page was fetched from, without credentials.
        package var url: String
        /// The response's `Link` fields.
        package var links: [String] = []
        /// The values at ``PaginationConfiguration/capturedPaths``.
        package var captured: [JSONPath: CapturedValue] = [:]
        /// Paths whose value was too long to keep.
        package var overlong: [JSONPath] = []
        /// The value at ``PaginationConfiguration/lastRecordPath`` in the page's last record; nil when it held none
        /// there, or one longer than 64 KiB.
        package var lastRecordCursor: CapturedValue?
        /// Records on the page, rejected ones included.
        package var records: Int
        /// Whether the page's bytes are exactly those of the page before.
        package var repeatsPrevious = false

        package init(url: String, records: Int) {
            self.url = url
            self.records = records
        }
    }

    package let pagination: PaginationConfiguration?
    /// The URL of the first page: the endpoint's, with the first page's number or offset for those kinds.
    package let firstURL: String
    /// The pages seen so far.
    package private(set) var pageCount = 0
    private var seenURLs: Set<String> = []
    private var seenCursors: Set<String> = []
    /// Records on the pages so far, rejected ones included.
    private var recordCount = 0
    /// The latest `Link` `rel="last"` target, resolved: the walk must reach it.
    private var announcedLast: String?
    /// The latest count at `total_path`: the walk must reach it.
    package private(set) var announcedTotal: Int?
    /// The pages a `Link` `rel="last"` announces, when its target and `rel="next"`'s number the pages in the same
    /// query parameter (see ``PageURL/announcedPageCount(last:next:fetched:)``).
    package private(set) var announcedPages: Int?

    package init(pagination: PaginationConfiguration?, url: String) {
        self.pagination = pagination
        switch pagination?.kind {
        case .page(let param, let start, let sizeParam, let size)?:
            var parameters = [(name: param, value: String(start))]
            if let sizeParam, let size { parameters.append((sizeParam, String(size))) }
            firstURL = PageURL.setting(parameters, in: url)
        case .offset(let param, let limitParam, let limit)?:
            var parameters = [(name: param, value: "0")]
            if let limitParam { parameters.append((limitParam, String(limit))) }
            firstURL = PageURL.setting(parameters, in: url)
        default:
            firstURL = url
        }
    }

    /// Takes the facts of the page just fetched and says what comes next.
    package mutating func next(after page: Page) -> Decision {
        pageCount += 1
        seenURLs.insert(page.url)
        guard let pagination else { return .done }
        let number = pageCount
        if page.repeatsPrevious {
            return .failure("page \(number) is byte-identical to page \(number - 1): the pagination loops")
        }
        if let path = page.overlong.first {
            return .failure("page \(number): the value at \(path) is longer than 64 KiB")
        }
        let (sum, overflow) = recordCount.addingReportingOverflow(page.records)
        recordCount = overflow ? Int.max : sum
        // Read once: a Link field may announce the last page and the next one.
        var nextTarget: String?
        if case .link = pagination.kind {
            let links = page.links.flatMap(LinkHeader.links(in:))
            nextTarget = LinkHeader.target(of: "next", among: links)
            if let last = LinkHeader.target(of: "last", among: links) {
                announcedLast = PageURL.resolve(last, against: page.url)
            }
            if let last = announcedLast, let next = nextTarget.flatMap({ PageURL.resolve($0, against: page.url) }) {
                announcedPages = PageURL.announcedPageCount(last: last, next: next, fetched: number) ?? announcedPages
            }
        }
        if let path = pagination.totalPath, let value = page.captured[path] {
            guard let total = Self.count(value) else {
                return .failure("page \(number): the value at total_path (\(path)) is not a whole number of records")
            }
            announcedTotal = total
        }
        let decision = decide(after: page, pagination: pagination, nextTarget: nextTarget)
        guard decision == .done else { return decision }
        return unfinished(after: page, pagination: pagination) ?? .done
    }

    /// Where the walk goes after `page`, by the configured kind and the stop rules; `nextTarget` is the target of its
    /// `Link` `rel="next"`, for link pagination.
    private mutating func decide(after page: Page, pagination: PaginationConfiguration, nextTarget: String?)
        -> Decision
    {
        let number = pageCount
        if page.records == 0 { return .done }
        let more = Self.announcesMore(page, pagination: pagination)?.more
        if more == false { return .done }
        // The count reached ends the walk, no page asked past it (an upstream may refuse one), unless the page's own
        // flag says more. Only an exact match: a count gone past the total (the collection changed during the walk,
        // or the path counts something else, such as pages) leaves the end to the other rules, as it did before.
        if more == nil, let total = announcedTotal, recordCount == total { return .done }
        if let size = pagination.pageSize, page.records < size { return .done }
        let nextURL: String
        var bodyCursor: CapturedValue?
        switch pagination.kind {
        case .link:
            guard let target = nextTarget else { return .done }
            guard let resolved = PageURL.resolve(target, against: page.url) else {
                return .failure("page \(number)'s Link rel=\"next\" is not an http or https URL")
            }
            nextURL = resolved
        case .cursor(let path, .body, let target, let repeats):
            guard let value = page.captured[path], let cursor = value.text else { return .done }
            guard repeats || seenCursors.insert(cursor).inserted else {
                return .failure("page \(number) repeats an earlier cursor at \(path): the pagination loops")
            }
            (nextURL, bodyCursor) = Self.request(for: value, cursor: cursor, to: target, after: page)
        case .cursor(let path, .lastRecord, let target, _):
            guard let value = page.lastRecordCursor, let cursor = value.text else {
                return .failure(
                    "page \(number)'s last record has no string or number at cursor_path (\(path)) to ask for the "
                        + "next page with")
            }
            guard seenCursors.insert(cursor).inserted else {
                return .failure(
                    "page \(number)'s last record repeats an earlier cursor at \(path): the pagination loops")
            }
            (nextURL, bodyCursor) = Self.request(for: value, cursor: cursor, to: target, after: page)
        case .nextURL(let path):
            guard let target = page.captured[path]?.text else { return .done }
            guard let resolved = PageURL.resolve(target, against: page.url) else {
                return .failure("page \(number)'s next URL at \(path) is not an http or https URL")
            }
            nextURL = resolved
        case .page(let param, let start, _, _):
            // The configuration bounds start; one built in code may not be.
            let (next, overflow) = start.addingReportingOverflow(number)
            guard !overflow else { return .failure("page \(number): the next page number is too large") }
            nextURL = PageURL.setting([(name: param, value: String(next))], in: page.url)
        case .offset(let param, _, let limit):
            let (offset, overflow) = number.multipliedReportingOverflow(by: limit)
            guard !overflow else { return .failure("page \(number): the next offset is too large") }
            nextURL = PageURL.setting([(name: param, value: String(offset))], in: page.url)
        }
        // A cursor sent in the body asks the same URL again: its cursors tell the pages apart. A cursor that may
        // repeat asks the same URL again too: the byte-identical page and max_pages still end a runaway walk.
        if bodyCursor == nil, !pagination.repeatsCursor, seenURLs.contains(nextURL) {
            return .failure("page \(number) leads back to a page already fetched: the pagination loops")
        }
        if number >= pagination.maxPages {
            return .failure(
                "max_pages (\(pagination.maxPages)) pages were fetched and the upstream announces more; raise max_pages"
            )
        }
        return .next(nextURL, bodyCursor: bodyCursor)
    }

    /// Where a cursor goes: into the page's URL as a query parameter, or into the next request's body.
    private static func request(
        for value: CapturedValue, cursor: String, to target: PaginationConfiguration.CursorTarget, after page: Page
    ) -> (url: String, bodyCursor: CapturedValue?) {
        switch target {
        case .query(let param): (PageURL.setting([(name: param, value: cursor)], in: page.url), nil)
        case .body: (page.url, value)
        }
    }

    /// The failure of a walk that ends while the upstream still announces more, if it does.
    private func unfinished(after page: Page, pagination: PaginationConfiguration) -> Decision? {
        let number = pageCount
        if let flag = Self.announcesMore(page, pagination: pagination), flag.more {
            return .failure(
                "the pages ended at page \(number) while \(flag.key) (\(flag.path)) says \(flag.value): the "
                    + "upstream announces more")
        }
        // GitHub names the last page of a one-page collection `?page=1`: the first page, fetched as the bare URL.
        if let last = announcedLast, !seenURLs.contains(last), !PageURL.isFirstPageSpelledOut(last, first: firstURL) {
            return .failure(
                "the pages ended at page \(number) before the page that Link rel=\"last\" announced was reached")
        }
        if let total = announcedTotal, recordCount < total, let path = pagination.totalPath {
            return .failure(
                "the pages ended at page \(number) with \(recordCount) records while total_path (\(path)) announces "
                    + "\(total)")
        }
        return nil
    }

    /// What the page's flag says about the pages after it: the boolean `value` at `has_more_path` or
    /// `last_page_path`, and whether it announces `more` pages; nil when neither is set or holds a boolean.
    private static func announcesMore(_ page: Page, pagination: PaginationConfiguration)
        -> (key: String, path: JSONPath, value: Bool, more: Bool)?
    {
        if let path = pagination.hasMorePath, case .bool(let value)? = page.captured[path] {
            return ("has_more_path", path, value, value)
        }
        if let path = pagination.lastPagePath, case .bool(let value)? = page.captured[path] {
            return ("last_page_path", path, value, !value)
        }
        return nil
    }

    /// A count as a number or a string of digits; nil for anything else.
    private static func count(_ value: CapturedValue) -> Int? {
        switch value {
        case .number(let literal), .string(let literal):
            guard let count = Int(literal), count >= 0 else { return nil }
            return count
        case .bool, .null, .other:
            return nil
        }
    }
}
