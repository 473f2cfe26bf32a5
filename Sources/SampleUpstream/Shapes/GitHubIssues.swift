/// A GitHub-shaped list of a repository's issues, paged as GitHub's REST API pages it: `per_page` issues a page (30
/// by default), `page` from 1 (the bare URL is page 1), a JSON array as the body, and a `Link` field with absolute
/// targets: `rel="next"` and `rel="last"` while pages follow, `rel="prev"` and `rel="first"` after the first.
///
/// ```
/// Link: <http://127.0.0.1:8080/repos/o/r/issues?per_page=3&page=2>; rel="next",
///       <http://127.0.0.1:8080/repos/o/r/issues?per_page=3&page=3>; rel="last"
/// ```
///
/// A collection that fits one page is answered as a recording of GitHub has it: its `Link` still names the last page,
/// which is the first, spelled `?page=1`, while that page was fetched as the bare URL.
package enum GitHubIssues {
    /// The answer to `request`, of `count` issues numbered from 1, on the origin the request's `Host` names.
    package static func answer(_ request: UpstreamRequest, count: Int) -> UpstreamResponse {
        let total = max(count, 0)
        let perPage = request.pageSize("per_page", default: 30, in: 1...100)
        guard let page = request.start("page", from: 1) else {
            return .json(Array(#"{"message": "Invalid page", "status": "422"}"#.utf8), status: 422)
        }
        let pages = max((total + perPage - 1) / perPage, 1)
        let start = min((page - 1) * perPage, total)
        let end = min(start + perPage, total)
        let issues = (start..<end).map { index in
            #"{"number": \#(index + 1), "title": "Issue \#(index + 1)", "state": "open", "user": {"login": "ann"}}"#
        }
        let base = "http://\(request.header("Host") ?? "127.0.0.1")\(request.path)?per_page=\(perPage)&page="
        var links: [String] = []
        if page > 1 { links += ["<\(base)\(page - 1)>; rel=\"prev\""] }
        if page < pages { links += ["<\(base)\(page + 1)>; rel=\"next\""] }
        if page < pages || pages == 1 { links += ["<\(base)\(pages)>; rel=\"last\""] }
        if page > 1 { links += ["<\(base)1>; rel=\"first\""] }
        return .json(
            Array("[\(issues.joined(separator: ", "))]".utf8),
            headers: [(name: "Link", value: links.joined(separator: ", "))])
    }
}
