/// A Bitbucket-Server-shaped list of a project's repositories, paged as Bitbucket Server (Data Center) pages it:
/// `start` (from 0) and `limit` (25 by default) in the query; each page says `isLastPage`, and one that is not the
/// last gives `nextPageStart`, the `start` of the next.
///
/// ```json
/// {"size": 2, "limit": 2, "isLastPage": false, "start": 0, "nextPageStart": 2,
///  "values": [{"slug": "repo-1", "id": 1, "name": "Repo 1", "project": {"key": "PRJ"}, "public": false}, …]}
/// ```
///
/// A `start` past the end gives an empty last page.
package enum BitbucketServerRepos {
    /// The slug of the repository numbered `number`, from 1.
    package static func slug(_ number: Int) -> String { "repo-\(number)" }

    /// The page that `request` asks for, of `count` repositories.
    package static func answer(_ request: UpstreamRequest, count: Int) -> UpstreamResponse {
        let total = max(count, 0)
        let limit = request.pageSize("limit", default: 25, in: 1...1000)
        guard let start = request.start("start") else {
            return .json(
                Array(#"{"errors": [{"context": "start", "message": "start must be a whole number"}]}"#.utf8),
                status: 400)
        }
        let end = min(start + limit, total)
        let values = (start..<max(start, end)).map { index in
            #"{"slug": "\#(slug(index + 1))", "id": \#(index + 1), "name": "Repo \#(index + 1)", "#
                + #""project": {"key": "PRJ"}, "public": false}"#
        }
        let isLastPage = end >= total
        let next = isLastPage ? "" : #", "nextPageStart": \#(end)"#
        return .json(
            Array(
                (#"{"size": \#(values.count), "limit": \#(limit), "isLastPage": \#(isLastPage), "#
                    + #""values": [\#(values.joined(separator: ", "))], "start": \#(start)\#(next)}"#).utf8))
    }
}
