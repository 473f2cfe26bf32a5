import Synchronization

/// A Crossref-like list of works, paged by deep-paging cursor: the first request asks `cursor=*`, each page's
/// `message.next-cursor` is sent back as `cursor`, and it stays the same from page to page (the upstream keeps the
/// position), so that only an empty page ends the walk. 20 works a page (`rows`).
///
/// ```json
/// {"status": "ok", "message-type": "work-list", "message": {"next-cursor": "DnF1ZXJ5VGhlbkZldGNo", "total-results": 47,
///  "items-per-page": 20, "items": [{"DOI": "10.5555/0", "title": ["Work 0"], "type": "journal-article"}, …]}}
/// ```
package final class InferCrossref: Sendable {
    /// The works.
    package static let count = 47
    /// The cursor every page names.
    package static let cursor = "DnF1ZXJ5VGhlbkZldGNo"

    /// The position the cursor has reached.
    private let position = Mutex(0)

    package init() {}

    /// The page that `request` asks for: from the start with `cursor=*`, else the next after the cursor's; an
    /// unknown cursor gives a 400.
    package func answer(_ request: UpstreamRequest) -> UpstreamResponse {
        let size = InferPaging.number(request.query["rows"], in: 1...1000, fallback: 20)
        let cursor = request.query["cursor"]
        guard cursor == nil || cursor == "*" || cursor == Self.cursor else {
            return .json(Array(#"{"status": "failed", "message": "invalid cursor"}"#.utf8), status: 400)
        }
        let start = position.withLock { position in
            if cursor == "*" || cursor == nil { position = 0 }
            defer { position = min(position + size, Self.count) }
            return position
        }
        let works = InferPaging.positions(start: start, size: size, count: Self.count).map { position in
            #"{"DOI": "10.5555/\#(position)", "title": ["Work \#(position)"], "type": "journal-article", "#
                + #""is-referenced-by-count": \#(position % 11)}"#
        }
        let next = cursor == nil ? "" : #""next-cursor": "\#(Self.cursor)", "#
        return InferPaging.json(
            #"{"status": "ok", "message-type": "work-list", "message": {\#(next)"total-results": \#(Self.count), "#
                + #""items-per-page": \#(size), "items": [\#(works.joined(separator: ", "))]}}"#)
    }
}
