package import SyncCore

/// A change-feed request: `since=VERSION`, and `after=POSITION` and `limit=N` when it continues a capped answer.
///
/// ```
/// ?since=12                       the changes after version 12, at most max_rows of them
/// ?since=12&after=15.r.4031       the part after the position a capped answer gave in "next"
/// ```
package struct ChangeFeedQuery: Sendable, Hashable {
    package var since: Int64
    package var after: ChangePosition?
    /// The most changes in one answer: `limit` when given, never more than `max_rows`.
    package var limit: Int
    /// Whether the request set `limit` (the `next` link repeats it).
    var limitGiven: Bool

    /// Parses a change-feed request's query string as the changes route reads it. Also the entry point of the `query`
    /// fuzz target (Fuzz/).
    ///
    /// - Throws: ``ReadAPIError/badParameter(_:_:)`` naming the parameter that is malformed.
    package init(parsing queryText: String, maxRows: Int) throws(ReadAPIError) {
        try self.init(QueryString(Substring(queryText)), maxRows: maxRows)
    }

    /// Parses the query string; a bad parameter throws ``ReadAPIError/badParameter(_:_:)`` naming it.
    init(_ parameters: QueryString, maxRows: Int) throws(ReadAPIError) {
        let sinceText = parameters.first("since") ?? "0"
        guard let since = Int64(sinceText), since >= 0 else {
            throw .badParameter("since", "since must be a version, a whole number 0 or more; got \"\(sinceText)\".")
        }
        self.since = since
        if let text = parameters.first("after") {
            guard let after = ChangePosition(text), after.version > since else {
                throw .badParameter(
                    "after",
                    "after must be a position from the \"next\" of an answer with the same since; got \"\(text)\".")
            }
            self.after = after
        }
        limit = maxRows
        limitGiven = false
        if let text = parameters.first("limit") {
            guard let value = Int(text), value >= 1 else {
                throw .badParameter("limit", "Limit must be a whole number, 1 or more; got \"\(text)\".")
            }
            limit = min(value, maxRows)
            limitGiven = true
        }
    }

    /// What tells this request's answer from another's in the representation cache.
    var cacheArgument: String {
        "\(since)&\(after?.description ?? "")&\(limitGiven ? String(limit) : "")"
    }

    /// The path and query of the part after `position`.
    package func link(endpoint: String, after position: ChangePosition) -> String {
        var link = "/v1/endpoints/\(endpoint)/changes?since=\(since)&after=\(position)"
        if limitGiven { link += "&limit=\(limit)" }
        return link
    }
}
