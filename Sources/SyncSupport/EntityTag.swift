/// Strong entity tags derived from syncd's own versions, and RFC 9110's If-None-Match comparison.
///
/// A tag is `"<instance>.<version>"`: the database's random instance id (so that a rebuilt cache never
/// answers "not modified" to a tag another one minted) and the version of what it describes — the
/// row's `_version` for one record, the endpoint's version for a list or a document.
package enum EntityTag {
    package static func make(instance: String, version: Int64) -> String {
        "\"\(instance).\(version)\""
    }

    /// Whether an If-None-Match header value matches `etag`: `*`, or a list of tags compared weakly
    /// (RFC 9110 §13.1.2: `W/` prefixes are ignored). A malformed value matches nothing.
    package static func ifNoneMatch(_ header: String, matches etag: String) -> Bool {
        // A client revalidating sends back the tag it was given, as it was given: then no list need be read.
        if header == etag { return true }
        let trimmed = header.trimmingASCIISpaces
        if trimmed == "*" { return true }
        let target = opaque(etag)
        return tags(in: header).contains { $0 == target }
    }

    /// The opaque tags of a list, `W/` and quotes kept as the comparison needs (`"abc"`).
    package static func tags(in header: String) -> [Substring] {
        var tags: [Substring] = []
        var rest = Substring(header)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            if rest.isEmpty { break }
            if rest.hasPrefix("W/") { rest = rest.dropFirst(2) }
            guard rest.first == "\"" else { return tags }  // malformed: stop at what was understood
            guard let close = rest.dropFirst().firstIndex(of: "\"") else { return tags }
            tags.append(rest[rest.startIndex...close])
            rest = rest[rest.index(after: close)...]
        }
        return tags
    }

    private static func opaque(_ etag: String) -> Substring {
        let tag = Substring(etag)
        return tag.hasPrefix("W/") ? tag.dropFirst(2) : tag
    }
}
