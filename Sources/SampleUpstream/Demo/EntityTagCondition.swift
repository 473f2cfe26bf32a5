/// The `If-None-Match` check of RFC 9110 §13.1.2, with the weak comparison it prescribes.
enum EntityTagCondition {
    /// Whether `ifNoneMatch` (`*`, or a list of entity tags such as `W/"a", "b"`) matches the current entity tag
    /// `current` (e.g. `"users-g0"`, quotes included). Matching means the client's copy is current: answer 304.
    static func noneMatchHits(_ ifNoneMatch: String, current: String) -> Bool {
        if ifNoneMatch.trimmingSpaces() == "*" {
            return true
        }
        guard let currentTag = opaqueTags(in: current).first else {
            return false
        }
        return opaqueTags(in: ifNoneMatch).contains(currentTag)
    }

    /// The opaque tags (quotes included, `W/` dropped) of a comma-separated list, up to the first malformed member.
    ///
    /// Scanned rather than split on commas, because an entity tag may itself contain a comma.
    static func opaqueTags(in list: String) -> [Substring] {
        var tags: [Substring] = []
        var rest = Substring(list)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            if rest.isEmpty {
                return tags
            }
            if rest.hasPrefix("W/") {
                rest = rest.dropFirst(2)
            }
            guard rest.first == "\"", let closing = rest.dropFirst().firstIndex(of: "\"") else {
                return tags
            }
            tags.append(rest[...closing])
            rest = rest[rest.index(after: closing)...]
        }
    }
}

extension String {
    fileprivate func trimmingSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
