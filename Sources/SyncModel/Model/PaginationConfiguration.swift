package import SyncDecoding

/// How an endpoint's collection is split over several responses, and when the last one has arrived
/// (`pagination = { type = … }`).
///
/// Every kind stops at an empty page, at a `has_more_path` value of `false` (a `last_page_path` value of `true`),
/// once the records reach the count at `total_path`, and fails the run at a repeated URL or cursor (unless a
/// cursor may repeat), at a page byte-identical to the one before (a loop), when ``maxPages`` pages were fetched
/// and the upstream still announces more, and when the walk ends while the upstream still announces more (a
/// `has_more_path` value of `true`, a `last_page_path` value of `false`, a `Link` `rel="last"` not reached, a
/// `total_path` count not reached): a snapshot is applied only when every page arrived.
package struct PaginationConfiguration: Sendable, Hashable {
    /// Where the next page is.
    package enum Kind: Sendable, Hashable {
        /// RFC 8288: the `Link` header's `rel="next"` target, relative or absolute.
        case link
        /// A cursor read at `path`, in the body or in its last record, sent in the next request. With `repeats`
        /// (`repeat_cursor`, a cursor read from the body), the cursor may stay the same from page to page, as a
        /// scroll id does: neither a repeated cursor nor the URL it leads to is a loop, and the walk ends at an empty
        /// page.
        case cursor(path: JSONPath, from: CursorSource, to: CursorTarget, repeats: Bool = false)
        /// The URL at `path` in the body, relative or absolute.
        case nextURL(path: JSONPath)
        /// Page numbers from `start`, in the query parameter `param`; `size`, when given, is sent as `sizeParam`
        /// (when given) and a page with fewer records is the last.
        case page(param: String, start: Int, sizeParam: String?, size: Int?)
        /// Offsets from 0 in the query parameter `param`, stepping by `limit`, sent as `limitParam` when given; a
        /// page with fewer records than `limit` is the last.
        case offset(param: String, limitParam: String?, limit: Int)
    }

    /// Where a cursor is read (`from`).
    package enum CursorSource: Sendable, Hashable {
        /// A path in the body, outside the records: `meta.next_cursor`.
        case body
        /// A path inside the page's last record: Stripe's `starting_after` takes the last record's `id`.
        case lastRecord
    }

    /// Where a cursor is sent.
    package enum CursorTarget: Sendable, Hashable {
        /// The query parameter of that name (`param`).
        case query(String)
        /// A value of the request's JSON body (`body_path`), replaced by the cursor: a GraphQL variable.
        case body(JSONPath)
    }

    /// The most pages fetched when `max_pages` is not set.
    package static let defaultMaxPages = 1000

    /// Where the next page is.
    package var kind: Kind
    /// The most pages one run fetches; reaching it with more pages announced fails the run. The default is 1000.
    package var maxPages: Int
    /// A boolean in the body; `false` there means this page is the last, and a walk that ends while it says `true`
    /// fails the run. The default is none.
    package var hasMorePath: JSONPath?
    /// A boolean in the body, the inverse of ``hasMorePath``: `true` there means this page is the last, and a walk
    /// that ends while it says `false` fails the run. At most one of the two is set. The default is none.
    package var lastPagePath: JSONPath?
    /// A count in the body: the number of records the walk must reach, else the run fails; reaching it ends the
    /// walk. The default is none.
    package var totalPath: JSONPath?

    package init(
        kind: Kind, maxPages: Int = PaginationConfiguration.defaultMaxPages, hasMorePath: JSONPath? = nil,
        lastPagePath: JSONPath? = nil, totalPath: JSONPath? = nil
    ) {
        self.kind = kind
        self.maxPages = maxPages
        self.hasMorePath = hasMorePath
        self.lastPagePath = lastPagePath
        self.totalPath = totalPath
    }

    /// `link`, `cursor`, `next_url`, `page` or `offset`: the `type` as written.
    package var kindName: String {
        switch kind {
        case .link: "link"
        case .cursor: "cursor"
        case .nextURL: "next_url"
        case .page: "page"
        case .offset: "offset"
        }
    }

    /// The paths in the body, outside the records, whose values a page's decoder captures.
    package var capturedPaths: [JSONPath] { keyedPaths.map(\.path) }

    /// The path inside each record whose value in a page's last record is the next cursor (`from = "last_record"`).
    package var lastRecordPath: JSONPath? {
        guard case .cursor(let path, .lastRecord, _, _) = kind else { return nil }
        return path
    }

    /// Whether a cursor read from the body may stay the same from page to page (`repeat_cursor`).
    package var repeatsCursor: Bool {
        guard case .cursor(_, .body, _, true) = kind else { return false }
        return true
    }

    /// The path in the request body that the cursor replaces (`body_path`).
    package var bodyPath: JSONPath? {
        guard case .cursor(_, _, .body(let path), _) = kind else { return nil }
        return path
    }

    /// The paths in the body, outside the records, with the key that sets each: `cursor_path` (read from the body),
    /// `path`, `has_more_path`, `last_page_path`, `total_path`.
    package var keyedPaths: [(key: String, path: JSONPath)] {
        var paths: [(key: String, path: JSONPath)] = []
        switch kind {
        case .cursor(let path, .body, _, _): paths.append(("cursor_path", path))
        case .cursor(_, .lastRecord, _, _): break
        case .nextURL(let path): paths.append(("path", path))
        case .link, .page, .offset: break
        }
        if let hasMorePath { paths.append(("has_more_path", hasMorePath)) }
        if let lastPagePath { paths.append(("last_page_path", lastPagePath)) }
        if let totalPath { paths.append(("total_path", totalPath)) }
        return paths
    }

    /// Whether a page's body decides the next page only by being empty: no value is read from it (no cursor, next
    /// URL, has-more or last-page flag, total) and no full page size is configured. The records of such a page need
    /// not be counted while it is fetched, only found: the transaction that stores them reads them all.
    package var decidesOnlyByEmptiness: Bool {
        keyedPaths.isEmpty && lastRecordPath == nil && pageSize == nil
    }

    /// The number of records a full page holds, when the configuration says.
    package var pageSize: Int? {
        switch kind {
        case .page(_, _, _, let size): size
        case .offset(_, _, let limit): limit
        case .link, .cursor, .nextURL: nil
        }
    }
}
