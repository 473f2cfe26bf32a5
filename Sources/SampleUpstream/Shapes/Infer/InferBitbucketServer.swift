/// A Bitbucket Server-like list of repositories: `start` and `limit` (25 by default) in the query, `isLastPage`
/// and, while it is false, `nextPageStart` in the body.
///
/// ```json
/// {"size": 25, "limit": 25, "isLastPage": false, "start": 0, "nextPageStart": 25,
///  "values": [{"slug": "repo-0", "id": 1, "name": "Repo 0", "state": "AVAILABLE", "public": false}, …]}
/// ```
package enum InferBitbucketServer {
    /// The repositories.
    package static let count = 40

    /// The page that `request` asks for.
    package static func answer(_ request: UpstreamRequest) -> UpstreamResponse {
        let limit = InferPaging.number(request.query["limit"], in: 1...1000, fallback: 25)
        let start = InferPaging.number(request.query["start"], in: 0...100_000, fallback: 0)
        let positions = InferPaging.positions(start: start, size: limit, count: count)
        let values = positions.map { position in
            #"{"slug": "repo-\#(position)", "id": \#(position + 1), "name": "Repo \#(position)", "#
                + #""state": "AVAILABLE", "public": \#(position % 2 == 0)}"#
        }
        let isLast = positions.upperBound >= count
        let next = isLast ? "" : #", "nextPageStart": \#(positions.upperBound)"#
        return InferPaging.json(
            #"{"size": \#(positions.count), "limit": \#(limit), "isLastPage": \#(isLast), "start": \#(start)\#(next), "#
                + #""values": [\#(values.joined(separator: ", "))]}"#)
    }
}
