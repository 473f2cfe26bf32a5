import SyncCore

/// The proposals for a cursor in the envelope: Crossref's `next-cursor`, Google's `nextPageToken` and Bitbucket
/// Server's `nextPageStart` are sure; any other cursor's parameter is a guess, so it is commented.
extension PaginationProposal {
    /// `{"isLastPage": false, "nextPageStart": 25, "values": [...]}`, Bitbucket Server: the number at
    /// `nextPageStart` is sent back as `start`, and `isLastPage` says when the walk ends.
    static func nextPageStart(envelope: [EnvelopeValue]) -> PaginationProposal? {
        guard let start = envelope.first(where: { $0.key == "nextPageStart" && $0.isNumber }),
            let last = envelope.first(where: { $0.key == "isLastPage" && $0.isBoolean && $0.parent == start.parent })
        else { return nil }
        return PaginationProposal(
            value: #"{ type = "cursor", cursor_path = \#(quoted(start.path)), param = "start", "#
                + #"last_page_path = \#(quoted(last.path)) }"#,
            isConfident: true,
            notes: [
                "Bitbucket Server's pages: each sends \(quoted(start.path)) back as start, until "
                    + "\(quoted(last.path)) is true."
            ],
            follow: PaginationConfiguration(
                kind: .cursor(path: start.path, from: .body, to: .query("start")), lastPagePath: last.path))
    }

    /// A cursor at `next_cursor`, `meta.next_cursor`, `nextPageToken`…: sent back in a query parameter, sure for
    /// Crossref's `message.next-cursor` (sent as `cursor`) and Google's `nextPageToken` (sent as `pageToken`), a
    /// guess for the others.
    static func nextCursor(envelope: [EnvelopeValue]) -> PaginationProposal? {
        let parameters = [
            "nextcursor": "cursor", "next": "cursor", "nexttoken": "next_token", "nextpagetoken": "pageToken",
        ]
        guard
            let found = envelope.first(where: { value in
                guard parameters[value.normalizedKey] != nil else { return false }
                if case .string(let text) = value.value { return !isURL(text) }
                return value.value == .null
            }), let param = parameters[found.normalizedKey]
        else { return nil }
        if let sure = crossrefCursor(found) ?? googlePageToken(found, envelope: envelope) { return sure }
        var value = #"{ type = "cursor", cursor_path = \#(quoted(found.path)), param = \#(quoted(param))"#
        let hasMore = envelope.first { value in
            value.isBoolean && ["hasmore", "hasnext", "hasnextpage"].contains(value.normalizedKey)
                && value.parent == found.parent
        }
        if let hasMore { value += ", has_more_path = \(quoted(hasMore.path))" }
        return PaginationProposal(
            value: value + " }", isConfident: false,
            notes: [
                "TODO: \(quoted(found.path)) reads like a cursor; the query parameter that takes it "
                    + "(\(quoted(param))) is a guess: check the API's documentation."
            ])
    }

    /// Crossref's deep paging, `{"message": {"next-cursor": "DnF1…", "items": [...]}}`: asked with `cursor=*`, each
    /// page sends its `next-cursor` back as `cursor`, which may stay the same from page to page; the walk ends at
    /// an empty page.
    private static func crossrefCursor(_ found: EnvelopeValue) -> PaginationProposal? {
        guard found.key == "next-cursor", case .string = found.value else { return nil }
        return PaginationProposal(
            value:
                #"{ type = "cursor", cursor_path = \#(quoted(found.path)), param = "cursor", repeat_cursor = true }"#,
            isConfident: true,
            notes: [
                "Crossref's cursor: the url asks cursor=* and each page sends \(quoted(found.path)) back as cursor; "
                    + "it may stay the same (repeat_cursor), and the walk ends at an empty page."
            ],
            follow: PaginationConfiguration(
                kind: .cursor(path: found.path, from: .body, to: .query("cursor"), repeats: true)))
    }

    /// Google's `{"items": [...], "nextPageToken": "…"}`: the token goes back as `pageToken`. Not when an `isLast`
    /// flag stands beside it, as in Jira's search, which takes the token under another name.
    private static func googlePageToken(_ found: EnvelopeValue, envelope: [EnvelopeValue]) -> PaginationProposal? {
        guard found.key == "nextPageToken", case .string = found.value,
            !envelope.contains(where: { $0.normalizedKey == "islast" && $0.parent == found.parent })
        else { return nil }
        return PaginationProposal(
            value: #"{ type = "cursor", cursor_path = \#(quoted(found.path)), param = "pageToken" }"#,
            isConfident: true,
            notes: ["Google's page tokens: each page sends \(quoted(found.path)) back as pageToken."],
            follow: PaginationConfiguration(kind: .cursor(path: found.path, from: .body, to: .query("pageToken"))))
    }
}
