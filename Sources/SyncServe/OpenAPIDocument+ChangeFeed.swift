internal import SyncCore

/// The change feed live in the document: `wait=` (the long poll) and the event stream a request with
/// `Accept: text/event-stream` gets. `Last-Event-ID` is described with the stream rather than declared a header
/// parameter: declared, schemathesis 4.32 sent a `Last-Event-ID` of 4,097 zeros as a value its schema allows.
extension OpenAPIDocument {
    /// `wait`'s grammar as ``ChangeFeedQuery`` reads it: at most six digits, then `s` (at most 50) or `ms` (at most
    /// 50,000).
    static let waitPattern =
        "^(0{0,5}[0-9]|0{0,4}[1-4][0-9]|0{0,4}50)s$"
        + "|^(0{0,5}[0-9]|0{0,4}[1-9][0-9]|0{0,3}[1-9][0-9]{2}|0{0,2}[1-9][0-9]{3}|0?[1-4][0-9]{4}|0?50000)ms$"

    /// The live parameters, in `components.parameters`.
    static let liveParameters: [String: JSONValue] = [
        "wait": query(
            "wait",
            "Makes the request a long poll: answered as soon as there is a change after `since`, or after this long "
                + "with the empty answer (`30s`, `500ms`; at most `50s`). It counts against `[server] max_streams`.",
            string(pattern: waitPattern))
    ]

    /// The change feed's answers: its JSON, or with `Accept: text/event-stream` the live stream.
    static func changesResponses(_ name: String) -> [String: JSONValue] {
        var responses = cached(json(ref("\(name)_changes"), "The changes.", headers: cacheHeaders))
        guard case .object(var ok)? = responses["200"], case .object(var content)? = ok["content"] else {
            return responses
        }
        content["text/event-stream"] = .object([
            "schema": .object([
                "type": "string",
                "description": .string(
                    "With `Accept: text/event-stream`: Server-Sent Events, one per part of the feed as it commits "
                        + "(`event: changes`, `id:` the position of its last change, `data:` the part's JSON as "
                        + "`\(name)_changes`), a `: heartbeat` comment after 15 s without one. A reconnect's "
                        + "`Last-Event-ID` (an event's `id`; also on a plain request) goes on after that position, in "
                        + "the place of `after`. At most `[server] max_streams` are open; one more is a 503."),
            ])
        ])
        ok["content"] = .object(content)
        responses["200"] = .object(ok)
        return responses
    }
}
