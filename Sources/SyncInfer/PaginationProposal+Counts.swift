import SyncCore

/// The proposals for an envelope that counts: an offset and a limit (Jira's `startAt`, `maxResults`, `total`), or a
/// page number and a page size (`page`, `per_page`, beside a total: iNaturalist's `total_results`, or Discogs'
/// `pagination.items`).
extension PaginationProposal {
    /// The page sizes the configuration accepts (`size`, `limit`): a larger or smaller one is not proposed.
    static let pageSizes = 1...1_000_000

    /// `{"startAt": 0, "maxResults": 50, "total": 57, "issues": [...]}`, Jira's: offsets sent as `startAt`, stepping
    /// by the page size the response reports, `total` the count of records to reach.
    static func startAt(envelope: [EnvelopeValue]) -> PaginationProposal? {
        guard let start = envelope.first(where: { $0.key == "startAt" && $0.isNumber }),
            let size = envelope.first(where: { $0.key == "maxResults" && $0.parent == start.parent }),
            let limit = size.integer, pageSizes.contains(limit)
        else { return nil }
        let total = envelope.first { $0.key == "total" && $0.isNumber && $0.parent == start.parent }
        return counted(
            value: #"{ type = "offset", param = "startAt", limit_param = "maxResults", limit = \#(limit)"#,
            note: "Jira's offsets: each page asks startAt=0, \(limit), \(limit * 2)… with maxResults=\(limit)",
            kind: .offset(param: "startAt", limitParam: "maxResults", limit: limit), total: total)
    }

    /// `{"page": 1, "per_page": 30, "total_results": 57, "results": [...]}` or `{"pagination": {"page": 1, "pages":
    /// 3, "per_page": 25, "items": 57}, …}`: page numbers sent as `page`, the page size sent back as it came, and the
    /// total, when there is one, the count of records to reach.
    static func pageNumbers(envelope: [EnvelopeValue]) -> PaginationProposal? {
        let sizeKeys = ["per_page", "perPage", "page_size", "pageSize"]
        guard let page = envelope.first(where: { $0.key == "page" && $0.isNumber }),
            let size = envelope.first(where: { sizeKeys.contains($0.key) && $0.parent == page.parent }),
            let perPage = size.integer, pageSizes.contains(perPage)
        else { return nil }
        let totalKeys = [
            "total_results", "totalResults", "total_count", "totalCount", "total_entries", "total", "items",
        ]
        let total = totalKeys.lazy.compactMap { key in
            envelope.first { $0.key == key && $0.isNumber && $0.parent == page.parent }
        }.first
        let start = page.integer == 0 ? 0 : 1
        var value = #"{ type = "page", param = "page", "#
        if start == 0 { value += "start = 0, " }
        value += #"size_param = \#(quoted(size.key)), size = \#(perPage)"#
        return counted(
            value: value, note: "Page numbers: each page asks page=\(start), \(start + 1)… with \(size.key)=\(perPage)",
            kind: .page(param: "page", start: start, sizeParam: size.key, size: perPage), total: total)
    }

    /// A sure proposal of pages that count: `value` (the inline table without its end) and `note`, each finished by
    /// the total when there is one (`total_path`), else by the short page that ends the walk.
    private static func counted(
        value: String, note: String, kind: PaginationConfiguration.Kind, total: EnvelopeValue?
    ) -> PaginationProposal {
        let ending =
            total.map { (", total_path = \(quoted($0.path)) }", ", until \(quoted($0.path)) records were read.") }
            ?? (" }", ", until a page holds fewer.")
        return PaginationProposal(
            value: value + ending.0, isConfident: true, notes: [note + ending.1],
            follow: PaginationConfiguration(kind: kind, totalPath: total?.path))
    }
}
