package import SyncCore

/// A change-feed request: `since=VERSION`, and `after=POSITION` and `limit=N` when it continues a capped answer.
///
/// ```
/// ?since=12                       the changes after version 12, at most max_rows of them
/// ?since=12&after=15.r.4031       the part after the position a capped answer gave in "next"
/// ```
package struct ChangeFeedQuery: Sendable, Hashable {
    package var since: Int64
    package var after: SyncCache.FeedPosition?
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

    /// Parses the query string; a bad parameter throws ``ReadAPIError/badParameter(_:_:)`` naming it. Numbers are
    /// digits alone (no sign), as the OpenAPI document says.
    init(_ parameters: QueryString, maxRows: Int) throws(ReadAPIError) {
        let sinceText = parameters.first("since") ?? "0"
        guard let since = QueryGrammar.natural(sinceText) else {
            throw .badParameter(
                "since", "since must be a version, a whole number from 0 to \(Int64.max); got \"\(sinceText)\".")
        }
        self.since = since
        if let text = parameters.first("after") {
            let parts = text.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, QueryGrammar.natural(String(parts[0])) != nil,
                QueryGrammar.natural(String(parts[2])) != nil, let after = SyncCache.FeedPosition(text)
            else {
                throw .badParameter(
                    "after",
                    "after must be a position VERSION.r.ROWID or VERSION.d.ROWID (whole numbers), as the \"next\" of "
                        + "an answer gives it; got \"\(text)\".")
            }
            // A position at or before `since` is before the walk's first change: the answer is the walk's start.
            self.after = after.version > since ? after : nil
        }
        limit = maxRows
        limitGiven = false
        if let text = parameters.first("limit") {
            guard let value = QueryGrammar.natural(text), value >= 1, value <= QueryLimits.count else {
                throw .badParameter(
                    "limit", "limit must be a whole number from 1 to \(QueryLimits.count); got \"\(text)\".")
            }
            limit = min(Int(value), maxRows)
            limitGiven = true
        }
    }

    /// What tells this request's answer from another's in the representation cache.
    var cacheArgument: String {
        "\(since)&\(after?.description ?? "")&\(limitGiven ? String(limit) : "")"
    }

    /// The path and query of the part after `position`.
    package func link(endpoint: String, after position: SyncCache.FeedPosition) -> String {
        var link = "/v1/endpoints/\(endpoint)/changes?since=\(since)&after=\(position)"
        if limitGiven { link += "&limit=\(limit)" }
        return link
    }
}
