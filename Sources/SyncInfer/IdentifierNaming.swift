import SyncCore

/// Turns JSON keys, URLs and file names into the names syncd's configuration accepts:
/// `^[a-z][a-z0-9_]{0,62}$`.
enum IdentifierNaming {
    /// The longest name the configuration accepts.
    static let maximumLength = 63

    /// Words of a key, split at non-alphanumerics and at case changes: `userID` → user, id; `HTTPServer` →
    /// http, server; `address-line1` → address, line1. Non-ASCII characters split words too.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            guard scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) else {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            let isUpper = ("A"..."Z").contains(scalar)
            if isUpper, let last = current.unicodeScalars.last {
                let previousIsUpper = ("A"..."Z").contains(last)
                let nextIsLower = index + 1 < scalars.count && ("a"..."z").contains(scalars[index + 1])
                if !previousIsUpper || nextIsLower {
                    words.append(current)
                    current = ""
                }
            }
            current.unicodeScalars.append(scalar)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `address.geo.lat` → `address_geo_lat`, `userId` → `user_id`; `fallback` when nothing usable is left.
    static func snakeCase(_ parts: [String], fallback: String) -> String {
        var name = parts.flatMap(words).map { $0.lowercased() }.joined(separator: "_")
        if name.isEmpty { name = fallback }
        if let first = name.unicodeScalars.first, !("a"..."z").contains(first) { name = "\(fallback)_" + name }
        return truncated(name)
    }

    /// The name cut to ``maximumLength`` without a trailing underscore.
    static func truncated(_ name: String) -> String {
        var cut = String(name.prefix(maximumLength))
        while cut.hasSuffix("_") { cut.removeLast() }
        return cut
    }

    /// `name`, or `name_2`, `name_3`… when it is taken; the result is added to `taken`.
    static func unique(_ name: String, in taken: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while taken.contains(candidate) {
            let suffix = "_\(number)"
            candidate = truncated(String(name.prefix(maximumLength - suffix.count))) + suffix
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }

    /// An endpoint name from a URL or file path: its last path segment without extension (`/api/users.json` →
    /// `users`), else its host; `endpoint` when neither gives a name.
    static func endpointName(from location: String) -> String {
        var text = location
        let hasScheme = text.split(separator: "/", maxSplits: 1).first?.hasSuffix(":") == true
        if hasScheme, let colon = text.firstIndex(of: ":") { text = String(text[text.index(after: colon)...]) }
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<cut]) }
        let segments = text.split(separator: "/").map(String.init)
        var candidates = segments.reversed().map { segment in
            segment.split(separator: ".").first.map(String.init) ?? segment
        }
        if hasScheme, !location.lowercased().hasPrefix("file:"), let host = segments.first { candidates.append(host) }
        for candidate in candidates {
            guard let first = words(candidate).first?.unicodeScalars.first, !("0"..."9").contains(first) else {
                continue
            }
            let name = snakeCase([candidate], fallback: "endpoint")
            guard !name.hasPrefix("syncd_"), !name.hasPrefix("sqlite_") else { return "api_" + name }
            return name
        }
        return "endpoint"
    }
}
