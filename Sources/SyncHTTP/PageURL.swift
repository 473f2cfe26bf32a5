internal import FoundationEssentials
import SyncSupport

/// The URL work of pagination: resolving a next link, setting query parameters, comparing origins.
///
/// URLs are never put into messages or logs: they may carry a secret query parameter.
package enum PageURL {
    /// `reference` (a Link target or a URL from a body), made absolute against the URL of the page it came from.
    ///
    /// - Returns: an absolute http or https URL, or nil when the reference is not one.
    package static func resolve(_ reference: String, against base: String) -> String? {
        plainlyResolved(reference, against: base) ?? resolvedByFoundation(reference, against: base)
    }

    /// ``resolve(_:against:)`` by Foundation's parser, for any reference.
    package static func resolvedByFoundation(_ reference: String, against base: String) -> String? {
        let trimmed = String(reference.trimmingASCIISpaces)
        guard !trimmed.isEmpty, let baseURL = URL(string: base),
            let url = URL(string: trimmed, relativeTo: baseURL)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { return nil }
        return url.absoluteString
    }

    /// What Foundation's parser makes of the references of nearly every paged API, without it (a paged sync resolves one
    /// a page: the parser was 5% of its event loop's time): an absolute http or https URL, which stays as it is, or an
    /// absolute path (`/users?page=2`), which takes the base's scheme and host; each in plain characters only
    /// (unreserved, sub-delimiters, `:`, `@`, `/`, `?`, well-formed `%XX`), a plain lowercase host, and no `/.` that
    /// could start a dot segment. nil for anything else, which Foundation resolves.
    package static func plainlyResolved(_ reference: String, against base: String) -> String? {
        let utf8 = reference.utf8
        if utf8.first == Plain.slash {
            guard utf8.dropFirst().first != Plain.slash, Plain.isPath(utf8), let origin = Plain.originLength(base)
            else { return nil }
            return String(base.utf8.prefix(origin)).map { $0 + reference }
        }
        guard let origin = Plain.originLength(reference), Plain.isPath(utf8.dropFirst(origin)),
            utf8.dropFirst(origin).first == Plain.slash
        else { return nil }
        return reference
    }

    /// The bytes ``plainlyResolved(_:against:)`` takes as they are.
    private enum Plain {
        static let slash = UInt8(ascii: "/")
        static let dot = UInt8(ascii: ".")
        static let percent = UInt8(ascii: "%")
        static let colon = UInt8(ascii: ":")

        /// How many bytes of `url` are `http://` or `https://` and a host of lowercase letters, digits, dots and
        /// hyphens with an optional port: nil when it does not start so, or the host ends in anything but `/`, `?` or
        /// the end.
        static func originLength(_ url: String) -> Int? {
            let bytes = url.utf8
            let scheme: Int
            if bytes.starts(with: "http://".utf8) {
                scheme = 7
            } else if bytes.starts(with: "https://".utf8) {
                scheme = 8
            } else {
                return nil
            }
            var length = scheme
            var hostLength = 0
            var portLength: Int?
            for byte in bytes.dropFirst(scheme) {
                if byte == slash || byte == UInt8(ascii: "?") { break }
                if var port = portLength {
                    guard ASCIIDigits.isDigit(byte), port < 5 else { return nil }
                    port += 1
                    portLength = port
                } else if byte == colon {
                    portLength = 0
                } else {
                    guard isHost(byte) else { return nil }
                    hostLength += 1
                }
                length += 1
            }
            guard hostLength > 0, portLength != 0 else { return nil }
            return length
        }

        static func isHost(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || ASCIIDigits.isDigit(byte) || byte == dot
                || byte == UInt8(ascii: "-")
        }

        /// Whether every byte is plain, each `%` starts `%XX`, and no `/` is followed by a `.`.
        static func isPath(_ bytes: some Collection<UInt8>) -> Bool {
            var previous: UInt8 = 0
            var hexDigitsDue = 0
            for byte in bytes {
                if hexDigitsDue > 0 {
                    guard ASCIIDigits.hexValue(byte) != nil else { return false }
                    hexDigitsDue -= 1
                } else if byte == percent {
                    hexDigitsDue = 2
                } else {
                    guard isPlain(byte), !(previous == slash && byte == dot) else { return false }
                }
                previous = byte
            }
            return hexDigitsDue == 0
        }

        /// RFC 3986's unreserved characters, sub-delimiters, `:`, `@`, `/` and `?`.
        static func isPlain(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "-._~!$&'()*+,;=:@/?".utf8.contains(byte)
            }
        }
    }

    /// `url` with each parameter set to its value: an existing one of that name is replaced where it stands (a repeat
    /// of it is dropped), a new one is appended; other parameters stay as they were.
    ///
    /// Values are percent-encoded but for RFC 3986's unreserved characters, so `+`, `/`, `=` and `&` in a cursor
    /// reach the upstream as they were.
    package static func setting(_ parameters: [(name: String, value: String)], in url: String) -> String {
        let (base, items, fragment) = parts(of: url)
        var query: [String] = []
        var pending = parameters
        for item in items ?? [] {
            let name = decoded(item).name
            guard parameters.contains(where: { $0.name == name }) else {
                query.append(String(item))
                continue
            }
            // The first occurrence is replaced where it stands; any repeat is dropped.
            if let position = pending.firstIndex(where: { $0.name == name }) {
                let (name, value) = pending.remove(at: position)
                query.append(encode(name) + "=" + encode(value))
            }
        }
        for (name, value) in pending {
            query.append(encode(name) + "=" + encode(value))
        }
        return base + "?" + query.joined(separator: "&") + fragment
    }

    /// `url` without the query parameters of these names (compared after percent-decoding); the rest stays as it was.
    package static func removing(_ names: Set<String>, from url: String) -> String {
        let (stem, items, fragment) = parts(of: url)
        guard let items else { return url }
        let kept = items.filter { !names.contains(decoded($0).name) }
        return kept.isEmpty ? String(stem + fragment) : stem + "?" + kept.joined(separator: "&") + fragment
    }

    /// Whether `url` is the page `first`, with its page number spelled out: `first` but for query parameters it lacks,
    /// each set to 1, or the same parameters in another order. GitHub's `Link` names the last page of a one-page
    /// collection `?page=1`, while its first page was fetched as the bare URL. Parameters compare after
    /// percent-decoding; the fragment is not compared.
    package static func isFirstPageSpelledOut(_ url: String, first: String) -> Bool {
        let (stem, items, _) = parts(of: url)
        let (firstStem, firstQuery, _) = parts(of: first)
        guard stem == firstStem else { return false }
        var unmatched = (items ?? []).map(decoded)
        let firstItems = (firstQuery ?? []).map(decoded)
        for item in firstItems {
            guard let index = unmatched.firstIndex(where: { $0 == item }) else { return false }
            unmatched.remove(at: index)
        }
        let firstNames = Set(firstItems.map(\.name))
        return unmatched.allSatisfy { $0.value == "1" && !firstNames.contains($0.name) }
    }

    /// The pages a `Link` `rel="last"` target announces: the value of the query parameter that numbers the pages,
    /// the one whose value in the `rel="next"` target is the number of the page after the `fetched` ones (GitHub's
    /// `page`). Nil when no parameter of both targets does, or the last one's is not a whole number of at least
    /// `fetched`.
    package static func announcedPageCount(last: String, next: String, fetched: Int) -> Int? {
        let (sum, overflow) = fetched.addingReportingOverflow(1)
        guard !overflow, let nextItems = parts(of: next).items, let lastItems = parts(of: last).items else {
            return nil
        }
        let following = String(sum)
        for item in nextItems.map(decoded) where item.value == following {
            guard let count = lastItems.map(decoded).first(where: { $0.name == item.name }).flatMap({ Int($0.value) })
            else { continue }
            if count >= fetched { return count }
        }
        return nil
    }

    /// A URL's parts: what comes before the query, the query's `&`-separated items (empty ones dropped; nil without
    /// a `?`), and the fragment from its `#`.
    private static func parts(of url: String) -> (stem: Substring, items: [Substring]?, fragment: Substring) {
        var base = Substring(url)
        var fragment = Substring()
        if let hash = base.firstIndex(of: "#") {
            fragment = base[hash...]
            base = base[..<hash]
        }
        guard let question = base.firstIndex(of: "?") else { return (base, nil, fragment) }
        return (base[..<question], base[base.index(after: question)...].split(separator: "&"), fragment)
    }

    /// A query item's name and value, percent-decoded; the value is empty when there is no `=`.
    private static func decoded(_ item: Substring) -> (name: String, value: String) {
        let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return (PercentDecoding.decode(pair.first ?? ""), pair.count > 1 ? PercentDecoding.decode(pair[1]) : "")
    }

    /// Whether two absolute URLs have the same scheme, host and port (RFC 6454), default ports included.
    package static func isSameOrigin(_ first: String, _ second: String) -> Bool {
        // Asked for every request, most often with the endpoint's own URL twice: the same string is the same origin.
        // Two plain URLs (see plainlyResolved) with the same bytes up to their paths need no parser; anything else is
        // Foundation's to compare.
        if first == second, Plain.originLength(first) != nil { return true }
        if let length = Plain.originLength(first), Plain.isPath(first.utf8.dropFirst(length)),
            Plain.originLength(second) == length, Plain.isPath(second.utf8.dropFirst(length)),
            first.utf8.prefix(length).elementsEqual(second.utf8.prefix(length))
        {
            return true
        }
        guard let first = URLComponents(string: first), let second = URLComponents(string: second) else {
            return false
        }
        func origin(_ url: URLComponents) -> (String, String, Int?) {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
            return (scheme, url.host?.lowercased() ?? "", port)
        }
        return origin(first) == origin(second)
    }

    private static func encode(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: PercentEncoding.isUnreserved)
    }
}
