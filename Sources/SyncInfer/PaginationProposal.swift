package import SyncCore
import SyncHTTP

/// A `pagination` line proposed from the envelope around the records (or the `Link` header), printed uncommented
/// only when the envelope leaves no doubt.
package struct PaginationProposal: Sendable, Equatable {
    /// The inline table: `{ type = "link" }`.
    package var value: String
    /// Whether the line is printed as is; otherwise it is commented, after a TODO.
    package var isConfident: Bool
    /// Why it was proposed, and what to check: printed as comments above the line.
    package var notes: [String]
    /// Endpoint keys the pagination needs besides, printed commented above it (a GraphQL query's `method` and
    /// `body`).
    package var otherKeys: [String] = []
    /// How `syncd infer --pages` follows the pages before it decides the columns: the proposal as a configuration,
    /// walked by the rules a sync walks by; nil when it is not sure enough to follow, since a guessed parameter could
    /// fetch the first page again and double its records.
    package var follow: PaginationConfiguration? = nil

    /// Proposes pagination for records at `records`, the first rule that matches: a `Link` header with
    /// `rel="next"`; a Stripe list; a GraphQL connection; a next URL; a next cursor (Crossref's `next-cursor`,
    /// Google's `nextPageToken`, Bitbucket Server's `nextPageStart`, others commented); Jira's
    /// `startAt`/`maxResults`; page numbers with a page size (`page`, `per_page`); a search envelope.
    ///
    /// - Parameters:
    ///   - records: the path of the records.
    ///   - envelope: the scalars outside the records.
    ///   - key: the path of the records' primary key, if one was found.
    ///   - links: the response's `Link` fields; nil when they could not be seen (a file, standard input).
    static func propose(
        records: JSONPath, envelope: [EnvelopeValue], key: JSONPath?, links: [String]?
    ) -> PaginationProposal? {
        if let links, LinkHeader.next(in: links) != nil {
            var notes = ["The response's Link header has a rel=\"next\" link: pages follow it."]
            if total(records: records, envelope: envelope) != nil { notes.append(totalNote) }
            return PaginationProposal(
                value: #"{ type = "link" }"#, isConfident: true, notes: notes,
                follow: PaginationConfiguration(kind: .link))
        }
        return stripeList(records: records, envelope: envelope, key: key)
            ?? graphQLConnection(records: records, envelope: envelope)
            ?? nextURL(envelope: envelope)
            ?? nextPageStart(envelope: envelope)
            ?? nextCursor(envelope: envelope)
            ?? startAt(envelope: envelope)
            ?? pageNumbers(envelope: envelope)
            ?? search(records: records, envelope: envelope, links: links)
    }

    /// `{"object": "list", "data": [...], "has_more": true}`: the next page starts after the last record's id.
    private static func stripeList(records: JSONPath, envelope: [EnvelopeValue], key: JSONPath?)
        -> PaginationProposal?
    {
        guard records == JSONPath(components: [.key("data")]),
            envelope.contains(where: { $0.path == JSONPath(components: [.key("has_more")]) && $0.isBoolean })
        else { return nil }
        let id = JSONPath(components: [.key("id")])
        let isList = envelope.contains {
            $0.path == JSONPath(components: [.key("object")]) && $0.value == .string("list")
        }
        let value =
            #"{ type = "cursor", from = "last_record", cursor_path = \#(quoted(key ?? id)), "#
            + #"param = "starting_after", has_more_path = "has_more" }"#
        if isList, key == id {
            return PaginationProposal(
                value: value, isConfident: true,
                notes: ["A Stripe list (object \"list\", has_more): each page starts after the last record's id."],
                follow: PaginationConfiguration(
                    kind: .cursor(path: id, from: .lastRecord, to: .query("starting_after")),
                    hasMorePath: JSONPath(components: [.key("has_more")])))
        }
        let why = isList ? "the records have no unique id" : "object is not \"list\""
        return PaginationProposal(
            value: value, isConfident: false,
            notes: [
                "TODO: data beside has_more reads like a Stripe list, but \(why): check the parameter that takes "
                    + "the last record's key."
            ])
    }

    /// `{…"issues": {"nodes": [...], "pageInfo": {"endCursor": "…", "hasNextPage": true}}}`, or `edges`.
    private static func graphQLConnection(records: JSONPath, envelope: [EnvelopeValue]) -> PaginationProposal? {
        guard case .key(let last) = records.components.last, last == "nodes" || last == "edges" else { return nil }
        let connection = JSONPath(components: Array(records.components.dropLast()) + [.key("pageInfo")])
        let endCursor = JSONPath(components: connection.components + [.key("endCursor")])
        let hasNextPage = JSONPath(components: connection.components + [.key("hasNextPage")])
        guard envelope.contains(where: { $0.path == endCursor }) else { return nil }
        var value = #"{ type = "cursor", cursor_path = \#(quoted(endCursor)), body_path = "variables.after""#
        if envelope.contains(where: { $0.path == hasNextPage && $0.isBoolean }) {
            value += ", has_more_path = \(quoted(hasNextPage))"
        }
        return PaginationProposal(
            value: value + " }", isConfident: false,
            notes: [
                "TODO: a GraphQL connection: each page sends pageInfo.endCursor back as the query's $after. A GraphQL "
                    + "endpoint is a POST with the query in its body: write the query (with $after), then uncomment."
            ],
            otherKeys: [#"method = "POST""#, #"body = '''{"query": "…", "variables": {"after": null}}'''"#])
    }

    /// A URL at `next`, `next_url`, `links.next`, `_links.next.href`, `paging.next`…: the next page's address.
    private static func nextURL(envelope: [EnvelopeValue]) -> PaginationProposal? {
        let names: Set<String> = ["next", "nexturl", "nextpageurl", "nextlink", "nextpage"]
        let found = envelope.first { value in
            guard case .string(let text) = value.value else { return false }
            let isNext =
                names.contains(value.normalizedKey)
                || (value.normalizedKey == "href" && value.path.components.dropLast().last == .key("next"))
            return isNext && isURL(text)
        }
        if let found {
            return PaginationProposal(
                value: #"{ type = "next_url", path = \#(quoted(found.path)) }"#, isConfident: true,
                notes: ["\(quoted(found.path)) holds the next page's URL."],
                follow: PaginationConfiguration(kind: .nextURL(path: found.path)))
        }
        guard let null = envelope.first(where: { $0.value == .null && names.contains($0.normalizedKey) }) else {
            return nil
        }
        return PaginationProposal(
            value: #"{ type = "next_url", path = \#(quoted(null.path)) }"#, isConfident: false,
            notes: [
                "TODO: \(quoted(null.path)) is null here (the last page?): check that it holds the next page's URL."
            ])
    }

    /// `{"total_count": 40, "items": [...]}`, GitHub's search: pages come from the `Link` header.
    private static func search(records: JSONPath, envelope: [EnvelopeValue], links: [String]?) -> PaginationProposal? {
        guard records == JSONPath(components: [.key("items")]), total(records: records, envelope: envelope) != nil
        else { return nil }
        let why =
            links == nil
            ? "its Link header could not be seen (read from a file or standard input)"
            : "this response had no Link rel=\"next\" (one page?)"
        return PaginationProposal(
            value: #"{ type = "link" }"#, isConfident: false,
            notes: [
                "TODO: items beside total_count reads like GitHub's search, which pages with the Link header, but "
                    + "\(why).", totalNote,
            ])
    }

    /// The `total_count` number beside the records, if any.
    private static func total(records: JSONPath, envelope: [EnvelopeValue]) -> EnvelopeValue? {
        let path = JSONPath(components: Array(records.components.dropLast()) + [.key("total_count")])
        return envelope.first { $0.path == path && $0.isNumber }
    }

    private static let totalNote =
        "total_path = \"total_count\" would check that every record was read, but GitHub's search serves at most "
        + "1,000 results, so a larger total fails each run."

    static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://")
            || (text.hasPrefix("/") && !text.hasPrefix("//"))
    }

    static func quoted(_ path: JSONPath) -> String { EndpointStanza.quoted(path.description) }

    static func quoted(_ text: String) -> String { EndpointStanza.quoted(text) }
}
