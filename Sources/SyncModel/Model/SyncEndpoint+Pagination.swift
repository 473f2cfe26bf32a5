package import SyncDecoding
import SyncSupport

extension SyncEndpoint {
    /// How a collection is split over several responses, and when the last one has arrived
    /// (`pagination = { type = … }` in syncd.toml).
    ///
    /// ```swift
    /// endpoint.pagination = .cursor(path: "meta.next_cursor", param: "cursor", hasMorePath: "meta.has_more")
    /// ```
    ///
    /// Every kind stops at an empty page, at a `hasMorePath` value of `false` (a `lastPagePath` value of `true`),
    /// once the records reach the count at `totalPath`, and fails the run at a repeated URL or cursor (unless
    /// `repeatCursor` allows it), at a page identical to the one before, when `maxPages` pages were fetched and the
    /// upstream still announces more, and when the walk ends while the upstream still announces more: a snapshot is
    /// applied only when every page arrived. Paths name values outside the records array.
    public struct Pagination: Sendable, Hashable {
        enum Kind: Sendable, Hashable {
            case link
            case cursor(path: String, param: String?, bodyPath: String?, from: CursorSource, repeats: Bool)
            case nextURL(path: String)
            case page(param: String, start: Int, sizeParam: String?, size: Int?)
            case offset(param: String, limitParam: String?, limit: Int)
        }

        /// Where a cursor is read.
        public enum CursorSource: Sendable, Hashable {
            /// A value in the body, outside the records: `meta.next_cursor` (`from = "body"`, the default).
            case body
            /// A value of each page's last record: Stripe's `starting_after` is the last customer's `id`
            /// (`from = "last_record"`). A page whose last record has no such value ends the walk with a failure.
            case lastRecord
        }

        let kind: Kind
        /// The most pages one run fetches; reaching it with more pages announced fails the run. The default is 1000.
        public var maxPages: Int
        /// A JSON path to a boolean in the body; `false` there means the page is the last, and a walk that ends
        /// while it says `true` fails the run. The default is none.
        public var hasMorePath: String?
        /// A JSON path to a boolean in the body, the inverse of ``hasMorePath`` (Bitbucket Server's `isLastPage`):
        /// `true` there means the page is the last, and a walk that ends while it says `false` fails the run. At
        /// most one of the two may be set. The default is none.
        public var lastPagePath: String?
        /// A JSON path to the exact number of records in the collection: the walk ends at the page whose records
        /// bring the count to it, asking for no page past it, and fails the run if it ends short of it (a count
        /// gone past it leaves the end to the other rules). Not for a capped or estimated count. The default is
        /// none.
        public var totalPath: String?

        init(kind: Kind, maxPages: Int, hasMorePath: String?, lastPagePath: String?, totalPath: String?) {
            self.kind = kind
            self.maxPages = maxPages
            self.hasMorePath = hasMorePath
            self.lastPagePath = lastPagePath
            self.totalPath = totalPath
        }

        /// RFC 8288: the `Link` header's `rel="next"` target, relative or absolute (`type = "link"`).
        ///
        /// A `rel="last"` target must be reached, else the run fails; one that names the first page with its page
        /// number spelled out (GitHub's `?page=1` for the bare URL) counts as reached.
        public static func link(
            maxPages: Int = 1000, hasMorePath: String? = nil, lastPagePath: String? = nil,
            totalPath: String? = nil
        ) -> Pagination {
            Pagination(
                kind: .link, maxPages: maxPages, hasMorePath: hasMorePath, lastPagePath: lastPagePath,
                totalPath: totalPath)
        }

        /// The value at `path` in the body (or, `from: .lastRecord`, in each page's last record), sent as the query
        /// parameter `param` of the next request (`type = "cursor"`), replacing one already in the URL.
        ///
        /// ```swift
        /// customers.pagination = .cursor(path: "id", param: "starting_after", from: .lastRecord, hasMorePath: "has_more")
        /// ```
        ///
        /// With `repeatCursor` (`repeat_cursor = true`, a cursor read from the body), the cursor may stay the same
        /// from page to page, as a scroll id does; the walk ends at an empty page, and a page byte-identical to the
        /// one before, or `maxPages` pages, still fail the run. Crossref's deep paging asks its first page with the
        /// URL's own `cursor=*`:
        ///
        /// ```swift
        /// works.url = "https://api.crossref.org/works?rows=1000&cursor=*"
        /// works.pagination = .cursor(path: "message.next-cursor", param: "cursor", repeatCursor: true)
        /// ```
        public static func cursor(
            path: String, param: String, from source: CursorSource = .body, repeatCursor: Bool = false,
            maxPages: Int = 1000, hasMorePath: String? = nil, lastPagePath: String? = nil, totalPath: String? = nil
        ) -> Pagination {
            var pagination = cursor(path: path, param: param, bodyPath: nil, from: source, repeatCursor: repeatCursor)
            pagination.setSharedOptions(
                maxPages: maxPages, hasMorePath: hasMorePath, lastPagePath: lastPagePath, totalPath: totalPath)
            return pagination
        }

        /// The value at `path` in the body (or in each page's last record), written into the request's JSON body at
        /// `bodyPath` for the next request: a GraphQL connection's `endCursor` sent as its `after` variable
        /// (`type = "cursor"` with `body_path`). The endpoint's ``SyncEndpoint/body`` must hold a value at
        /// `bodyPath` (`null` for the first page).
        ///
        /// ```swift
        /// issues.pagination = .cursor(
        ///     path: "data.repository.issues.pageInfo.endCursor", bodyPath: "variables.after",
        ///     hasMorePath: "data.repository.issues.pageInfo.hasNextPage")
        /// ```
        public static func cursor(
            path: String, bodyPath: String, from source: CursorSource = .body, repeatCursor: Bool = false,
            maxPages: Int = 1000, hasMorePath: String? = nil, lastPagePath: String? = nil, totalPath: String? = nil
        ) -> Pagination {
            var pagination = cursor(
                path: path, param: nil, bodyPath: bodyPath, from: source, repeatCursor: repeatCursor)
            pagination.setSharedOptions(
                maxPages: maxPages, hasMorePath: hasMorePath, lastPagePath: lastPagePath, totalPath: totalPath)
            return pagination
        }

        /// A cursor pagination as syncd.toml sets it: `param` or `bodyPath`, exactly one, which ``compile(problems:)``
        /// checks.
        package static func cursor(
            path: String, param: String?, bodyPath: String?, from source: CursorSource, repeatCursor: Bool = false
        ) -> Pagination {
            Pagination(
                kind: .cursor(path: path, param: param, bodyPath: bodyPath, from: source, repeats: repeatCursor),
                maxPages: 1000, hasMorePath: nil, lastPagePath: nil, totalPath: nil)
        }

        /// Sets the options every kind takes.
        private mutating func setSharedOptions(
            maxPages: Int, hasMorePath: String?, lastPagePath: String?, totalPath: String?
        ) {
            (self.maxPages, self.hasMorePath, self.lastPagePath, self.totalPath) =
                (maxPages, hasMorePath, lastPagePath, totalPath)
        }

        /// The URL at `path` in the body, relative or absolute (`type = "next_url"`).
        public static func nextURL(
            path: String, maxPages: Int = 1000, hasMorePath: String? = nil, lastPagePath: String? = nil,
            totalPath: String? = nil
        ) -> Pagination {
            Pagination(
                kind: .nextURL(path: path), maxPages: maxPages, hasMorePath: hasMorePath, lastPagePath: lastPagePath,
                totalPath: totalPath)
        }

        /// Page numbers from `start` in the query parameter `param`; `size`, when given, is sent as `sizeParam`
        /// (when given), and a page with fewer records is the last (`type = "page"`).
        public static func page(
            param: String, start: Int = 1, size: Int? = nil, sizeParam: String? = nil,
            maxPages: Int = 1000, hasMorePath: String? = nil, lastPagePath: String? = nil,
            totalPath: String? = nil
        ) -> Pagination {
            Pagination(
                kind: .page(param: param, start: start, sizeParam: sizeParam, size: size), maxPages: maxPages,
                hasMorePath: hasMorePath, lastPagePath: lastPagePath, totalPath: totalPath)
        }

        /// Offsets from 0 in the query parameter `param`, stepping by `limit`, sent as `limitParam` when given; a
        /// page with fewer records than `limit` is the last (`type = "offset"`).
        public static func offset(
            param: String, limit: Int, limitParam: String? = nil,
            maxPages: Int = 1000, hasMorePath: String? = nil, lastPagePath: String? = nil,
            totalPath: String? = nil
        ) -> Pagination {
            Pagination(
                kind: .offset(param: param, limitParam: limitParam, limit: limit), maxPages: maxPages,
                hasMorePath: hasMorePath, lastPagePath: lastPagePath, totalPath: totalPath)
        }

        /// Checks every value and builds what a sync walks by, or adds to `problems` why not. The one set of
        /// rules for syncd.toml and Swift.
        package func compile(problems: inout [OptionProblem]) -> PaginationConfiguration? {
            let count = problems.count
            func path(_ key: String, _ text: String) -> JSONPath? {
                do {
                    let path = try JSONPath(parsing: text)
                    guard !path.components.isEmpty else {
                        problems.append(
                            .init(key: key, "pagination: \(key) must name a value inside the body, not \"$\""))
                        return nil
                    }
                    return path
                } catch {
                    problems.append(.init(key: key, "pagination: \(key): \(error)"))
                    return nil
                }
            }
            func param(_ key: String, _ name: String) {
                if name.isEmpty || HTTPHeaderSyntax.hasForbiddenByte(name) {
                    problems.append(.init(key: key, "pagination: \(key) must be the name of a query parameter"))
                }
            }
            func number(_ key: String, _ value: Int, in range: ClosedRange<Int>) {
                if let problem = EndpointRules.wholeNumber("pagination: \(key)", value, in: range) {
                    problems.append(.init(key: key, problem))
                }
            }
            var compiled: PaginationConfiguration.Kind?
            switch kind {
            case .link:
                compiled = .link
            case .cursor(let text, let name, let bodyText, let source, let repeats):
                let cursor = path("cursor_path", text)
                var target: PaginationConfiguration.CursorTarget?
                switch (name, bodyText) {
                case (let name?, nil):
                    param("param", name)
                    target = .query(name)
                case (nil, let bodyText?):
                    target = path("body_path", bodyText).map { .body($0) }
                case (.some, .some):
                    problems.append(.init(key: "body_path", "pagination: set param or body_path, not both"))
                case (nil, nil):
                    problems.append(
                        .init(
                            key: nil,
                            "pagination: type \"cursor\" needs \"param\" (a query parameter) or \"body_path\" "
                                + "(a value of the request body)"))
                }
                if repeats, source == .lastRecord {
                    problems.append(
                        .init(
                            key: "repeat_cursor",
                            "pagination: repeat_cursor is for a cursor read from the body, not from each page's last "
                                + "record"))
                }
                if let cursor, let target {
                    compiled = .cursor(
                        path: cursor, from: source == .lastRecord ? .lastRecord : .body, to: target, repeats: repeats)
                }
            case .nextURL(let text):
                compiled = path("path", text).map { .nextURL(path: $0) }
            case .page(let name, let start, let sizeParam, let size):
                param("param", name)
                number("start", start, in: ConfigurationBounds.paginationStart)
                if let sizeParam { param("size_param", sizeParam) }
                if let size { number("size", size, in: ConfigurationBounds.pageSize) }
                if sizeParam != nil, size == nil {
                    problems.append(
                        .init(key: nil, "pagination: \"size_param\" needs \"size\", the number of records a page holds")
                    )
                }
                compiled = .page(param: name, start: start, sizeParam: sizeParam, size: size)
            case .offset(let name, let limitParam, let limit):
                param("param", name)
                number("limit", limit, in: ConfigurationBounds.pageSize)
                if let limitParam { param("limit_param", limitParam) }
                compiled = .offset(param: name, limitParam: limitParam, limit: limit)
            }
            number("max_pages", maxPages, in: ConfigurationBounds.maxPages)
            let hasMore = hasMorePath.flatMap { path("has_more_path", $0) }
            let lastPage = lastPagePath.flatMap { path("last_page_path", $0) }
            if hasMorePath != nil, lastPagePath != nil {
                problems.append(
                    .init(
                        key: "last_page_path",
                        "pagination: set has_more_path (true while more pages follow) or last_page_path (true on the "
                            + "last page), not both"))
            }
            let total = totalPath.flatMap { path("total_path", $0) }
            guard problems.count == count, let compiled else { return nil }
            return PaginationConfiguration(
                kind: compiled, maxPages: maxPages, hasMorePath: hasMore, lastPagePath: lastPage, totalPath: total)
        }
    }
}

extension PaginationConfiguration {
    /// The paths that lie inside the records array (`data[9].id` when `records = "data"`): the decoder never
    /// captures values there, so the walk would stop at the first page.
    package func problems(records: JSONPath) -> [OptionProblem] {
        keyedPaths.filter { $0.path.components.starts(with: records.components) }.map { key, path in
            OptionProblem(
                key: key,
                "pagination: \(key) \"\(path)\" lies inside the records array (\"\(records)\"); "
                    + "it must name a value outside the records, such as \"meta.next\"")
        }
    }
}
