package import SyncCore

/// A change-feed request: `since=VERSION`, and `after=POSITION` and `limit=N` when it continues a capped answer;
/// `wait=DURATION` makes it a long poll.
///
/// ```
/// ?since=12                       the changes after version 12, at most max_rows of them
/// ?since=12&after=15.r.4031       the part after the position a capped answer gave in "next"
/// ?since=12&wait=30s              the same, answered as soon as there is a change after version 12 (30 s at most)
/// ```
package struct ChangeFeedQuery: Sendable, Hashable {
    package var since: Int64
    package var after: SyncCache.FeedPosition?
    /// The most changes in one answer: `limit` when given, never more than `max_rows`.
    package var limit: Int
    /// Whether the request set `limit` (the `next` link repeats it).
    var limitGiven: Bool
    /// How long a long poll waits for a change after `since` before it answers anyway: `wait=30s` or `wait=500ms`,
    /// at most ``longestWait``. `nil` answers at once.
    package var wait: Duration?

    /// The longest `wait`: below the read API's idle timeout (60 s), which closes a connection whose answer has not
    /// started, and the 60 s many proxies give an idle request.
    package static let longestWait = Duration.seconds(50)

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
        if let text = parameters.first("wait") {
            guard let wait = Self.duration(text), wait <= Self.longestWait else {
                throw .badParameter(
                    "wait", "wait must be a time of at most 50s, such as 30s or 500ms; got \"\(text)\".")
            }
            self.wait = wait
        }
    }

    /// `30s` or `500ms`: digits, then the unit; nil for anything else or a number past any wait.
    private static func duration(_ text: String) -> Duration? {
        let (digits, milliseconds) =
            text.hasSuffix("ms")
            ? (text.dropLast(2), true) : text.hasSuffix("s") ? (text.dropLast(), false) : ("", false)
        guard digits.utf8.count <= 6, let value = QueryGrammar.natural(String(digits)) else { return nil }
        return milliseconds ? .milliseconds(value) : .seconds(value)
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
