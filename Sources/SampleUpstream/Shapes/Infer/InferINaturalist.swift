/// An iNaturalist-like list of observations, paged by number: `page` and `per_page` (30 by default), with
/// `total_results` beside the results.
///
/// ```json
/// {"total_results": 64, "page": 1, "per_page": 30,
///  "results": [{"id": 500, "uuid": "…", "species_guess": "Species 0", "observed_on": "2024-05-01", "quality_grade": "research"}, …]}
/// ```
package enum InferINaturalist {
    /// The observations.
    package static let count = 64

    /// The page that `request` asks for.
    package static func answer(_ request: UpstreamRequest) -> UpstreamResponse {
        let size = InferPaging.number(request.query["per_page"], in: 1...200, fallback: 30)
        let page = InferPaging.number(request.query["page"], in: 1...1000, fallback: 1)
        let results = InferPaging.positions(start: (page - 1) * size, size: size, count: count).map { position in
            let uuid = "00000000-0000-4000-8000-\(String(100_000_000_000 + position))"
            let grade = position % 4 == 0 ? "needs_id" : "research"
            return #"{"id": \#(500 + position), "uuid": "\#(uuid)", "species_guess": "Species \#(position % 9)", "#
                + #""observed_on": "2024-05-\#(10 + position % 18)", "quality_grade": "\#(grade)"}"#
        }
        return InferPaging.json(
            #"{"total_results": \#(count), "page": \#(page), "per_page": \#(size), "#
                + #""results": [\#(results.joined(separator: ", "))]}"#)
    }
}
