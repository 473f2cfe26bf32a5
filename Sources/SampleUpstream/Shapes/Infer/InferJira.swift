/// A Jira-like issue search, paged by offset: `startAt`, and `maxResults` (20 by default, at most 50, as Jira caps
/// it), with the `total` beside the issues.
///
/// ```json
/// {"expand": "names,schema", "startAt": 0, "maxResults": 20, "total": 45,
///  "issues": [{"id": "10000", "key": "SYNC-1", "fields": {"summary": "Issue 1", "status": {"name": "Open"}}}, …]}
/// ```
package enum InferJira {
    /// The issues found.
    package static let count = 45

    /// The page that `request` asks for.
    package static func answer(_ request: UpstreamRequest) -> UpstreamResponse {
        let size = InferPaging.number(request.query["maxResults"], in: 1...50, fallback: 20)
        let start = InferPaging.number(request.query["startAt"], in: 0...100_000, fallback: 0)
        let issues = InferPaging.positions(start: start, size: size, count: count).map { position in
            #"{"id": "\#(10_000 + position)", "key": "SYNC-\#(position + 1)", "fields": {"summary": "Issue "#
                + #"\#(position + 1)", "status": {"name": "\#(position % 3 == 0 ? "Done" : "Open")"}}}"#
        }
        return InferPaging.json(
            #"{"expand": "names,schema", "startAt": \#(start), "maxResults": \#(size), "total": \#(count), "#
                + #""issues": [\#(issues.joined(separator: ", "))]}"#)
    }
}
