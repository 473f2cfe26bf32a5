import Synchronization

/// A Crossref-shaped list of works, deep-paged as Crossref's REST API pages it: the first request sends `cursor=*`,
/// every answer carries `message.next-cursor` — the same scroll id on every page of one walk — and `rows` works in
/// `message.items` (20 by default); the page after the last work holds no items.
///
/// ```json
/// {"status": "ok", "message-type": "work-list", "message-version": "1.0.0", "message": {"facets": {},
///  "next-cursor": "DnF1ZXJ5VGhlbkZldGNo+/1=", "total-results": 7, "items": [{"DOI": "10.5555/works.1", …}],
///  "items-per-page": 3, "query": {"start-index": 0, "search-terms": null}}}
/// ```
///
/// A scroll is the server's state: each `cursor=*` starts a new one, with a scroll id of its own; a cursor it did not
/// give gets a 400. Without `cursor`, the first page comes without a `next-cursor`, as Crossref answers.
package final class CrossrefWorks: Sendable {
    /// Works already served, by scroll id.
    private let scrolls = Mutex<[String: Int]>([:])
    private let count: Int

    /// A list of `count` works.
    package init(count: Int) {
        self.count = max(count, 0)
    }

    /// The DOI of the work numbered `number`, from 1.
    package static func doi(_ number: Int) -> String { "10.5555/works.\(number)" }

    /// The answer to `request`, for `/works`.
    package func answer(_ request: UpstreamRequest) -> UpstreamResponse {
        let rows = request.pageSize("rows", default: 20, in: 1...1000)
        var scroll: String?
        let start: Int
        switch request.query["cursor"] {
        case nil:
            start = 0
        case "*":
            let id = scrolls.withLock { scrolls in
                // The scroll id holds `+`, `/` and `=`, as Crossref's do: they must reach it unchanged.
                let id = "DnF1ZXJ5VGhlbkZldGNo+/\(scrolls.count + 1)="
                scrolls[id] = 0
                return id
            }
            (scroll, start) = (id, 0)
        case let cursor?:
            guard let served = scrolls.withLock({ $0[cursor] }) else {
                return .json(
                    Array(
                        (#"{"status": "failed", "message-type": "validation-failure", "message": [{"type": "#
                            + #""cursor-not-found", "message": "The cursor is not one of this server's"}]}"#).utf8),
                    status: 400)
            }
            (scroll, start) = (cursor, served)
        }
        let end = min(start + rows, count)
        let first = min(start, end)
        if let scroll { scrolls.withLock { $0[scroll] = end } }
        let items = (first..<end).map { index in
            #"{"DOI": "\#(Self.doi(index + 1))", "type": "journal-article", "title": ["Work \#(index + 1)"], "#
                + #""published": {"date-parts": [[2024, 1, \#(index % 28 + 1)]]}}"#
        }
        let next = scroll.map { #""next-cursor": "\#($0)", "# } ?? ""
        return .json(
            Array(
                (#"{"status": "ok", "message-type": "work-list", "message-version": "1.0.0", "message": {"#
                    + #""facets": {}, \#(next)"total-results": \#(count), "items": [\#(items.joined(separator: ", "))], "#
                    + #""items-per-page": \#(rows), "query": {"start-index": 0, "search-terms": null}}}"#).utf8))
    }
}
