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
        /// Fetch this URL: an absolute http or https URL.
        case next(String)
        /// That page was the last.
        case done
        /// The pages cannot be trusted to be complete: a loop, or `max_pages` reached with more announced.
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
        if page.records == 0 { return .done }
        if let path = pagination.hasMorePath, page.captured[path] == .bool(false) { return .done }
        if let size = pagination.pageSize, page.records < size { return .done }
        let nextURL: String
        switch pagination.kind {
        case .link:
            guard let target = LinkHeader.next(in: page.links) else { return .done }
            guard let resolved = PageURL.resolve(target, against: page.url) else {
                return .failure("page \(number)'s Link rel=\"next\" is not an http or https URL")
            }
            nextURL = resolved
        case .cursor(let path, let param):
            guard let cursor = page.captured[path]?.text else { return .done }
            guard seenCursors.insert(cursor).inserted else {
                return .failure("page \(number) repeats an earlier cursor at \(path): the pagination loops")
            }
            nextURL = PageURL.setting([(name: param, value: cursor)], in: page.url)
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
        if seenURLs.contains(nextURL) {
            return .failure("page \(number) leads back to a page already fetched: the pagination loops")
        }
        if number >= pagination.maxPages {
            return .failure(
                "max_pages (\(pagination.maxPages)) pages were fetched and the upstream announces more; raise max_pages"
            )
        }
        return .next(nextURL)
    }
}
