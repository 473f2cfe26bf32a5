/// A Discogs-like collection of releases, paged by number: `page` and `per_page` (25 by default), with the
/// counts in a `pagination` object. One release on page 2 has no `year`, so that a stanza inferred from page 1
/// alone would mark `year` required and lose it.
///
/// ```json
/// {"pagination": {"page": 1, "pages": 3, "per_page": 25, "items": 57},
///  "releases": [{"id": 1000, "title": "Release 0", "artist": "Artist 0", "year": 1970, "format": "Vinyl"}, …]}
/// ```
package enum InferDiscogs {
    /// The releases in the collection.
    package static let count = 57
    /// The position of the release without `year`: the sixth of page 2 at the default page size.
    package static let yearless = 30

    /// The page that `request` asks for.
    package static func answer(_ request: UpstreamRequest) -> UpstreamResponse {
        let size = InferPaging.number(request.query["per_page"], in: 1...100, fallback: 25)
        let page = InferPaging.number(request.query["page"], in: 1...1000, fallback: 1)
        let pages = (count + size - 1) / size
        let releases = InferPaging.positions(start: (page - 1) * size, size: size, count: count).map { position in
            let year = position == yearless ? "" : #", "year": \#(1970 + position % 50)"#
            return
                #"{"id": \#(1000 + position), "title": "Release \#(position)", "artist": "Artist \#(position % 7)"\#(year), "#
                + #""format": "Vinyl"}"#
        }
        return InferPaging.json(
            #"{"pagination": {"page": \#(page), "pages": \#(pages), "per_page": \#(size), "items": \#(count)}, "#
                + #""releases": [\#(releases.joined(separator: ", "))]}"#)
    }
}
