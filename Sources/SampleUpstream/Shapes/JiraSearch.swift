/// A Jira-shaped issue search, paged as Jira's REST API pages it: `startAt` (from 0) and `maxResults` (50 by
/// default) in the query, the collection's size in `total`, the issues in `issues`.
///
/// ```json
/// {"expand": "schema,names", "startAt": 0, "maxResults": 3, "total": 6,
///  "issues": [{"id": "10001", "key": "PRJ-1", "fields": {"summary": "Issue 1", "status": {"name": "Open"}}}, …]}
/// ```
///
/// A `startAt` at or past `total` (but 0, which gives an empty page when there are no issues) gets a 400, as Jira
/// can answer a page past the end: a client must stop when the issues it counted reach `total`.
package enum JiraSearch {
    /// The key of the issue numbered `number`, from 1.
    package static func key(_ number: Int) -> String { "PRJ-\(number)" }

    /// The page that `request` asks for, of `count` issues.
    package static func answer(_ request: UpstreamRequest, count: Int) -> UpstreamResponse {
        let total = max(count, 0)
        let maxResults = request.pageSize("maxResults", default: 50, in: 1...100)
        guard let startAt = request.start("startAt") else {
            return error("The value of startAt is not a whole number.")
        }
        guard startAt == 0 || startAt < total else {
            return error("startAt (\(startAt)) must be less than the total (\(total)).")
        }
        let end = min(startAt + maxResults, total)
        let issues = (startAt..<max(startAt, end)).map { index in
            #"{"id": "\#(10001 + index)", "key": "\#(key(index + 1))", "fields": {"summary": "Issue \#(index + 1)", "#
                + #""status": {"name": "\#(index % 2 == 0 ? "Open" : "Done")"}}}"#
        }
        return .json(
            Array(
                (#"{"expand": "schema,names", "startAt": \#(startAt), "maxResults": \#(maxResults), "#
                    + #""total": \#(total), "issues": [\#(issues.joined(separator: ", "))]}"#).utf8))
    }

    private static func error(_ message: String) -> UpstreamResponse {
        .json(Array(#"{"errorMessages": ["\#(message)"], "errors": {}}"#.utf8), status: 400)
    }
}
