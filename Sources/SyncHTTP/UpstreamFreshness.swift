import SyncSupport

/// What an answer's headers say about how long it stays fresh (RFC 9111 §4.2), read as a shared cache reads them:
/// syncd keeps one copy for many readers.
///
/// The freshness lifetime is the first of `s-maxage`, `max-age`, and `Expires` less `Date` (§4.2.1); the answer's
/// age is the larger of its `Age` and its apparent age, the time since its `Date` (§4.2.3, the request's round trip
/// left out). What is left of the lifetime is ``freshFor``.
///
/// ```swift
/// let freshness = UpstreamFreshness(headers: [("Cache-Control", "max-age=3600"), ("Age", "600")], now: now)
/// freshness.freshFor     // 3000
/// freshness.source       // .maxAge
/// ```
///
/// Invalid freshness information counts as stale, as §4.2.1 encourages: `max-age=soon` or `Expires: 0` give a
/// lifetime of 0. An invalid `Age` is ignored (§5.1). Every number is bounded: delta-seconds at 2^31 s
/// (``CacheDirectives/greatestDelta``), dates as ``HTTPDate`` reads them.
package struct UpstreamFreshness: Sendable, Hashable {
    /// Where the lifetime came from.
    package enum Source: String, Sendable, Hashable {
        case sMaxAge = "s-maxage"
        case maxAge = "max-age"
        case expires = "Expires"
    }

    /// The freshness lifetime in seconds, before the answer's age; `nil` when the answer gives none.
    package var lifetime: Double?
    /// The header the lifetime came from; `nil` with it.
    package var source: Source?
    /// How old the answer already was when it arrived, in seconds.
    package var age: Double
    /// `no-store`: the upstream asks that the answer not be kept at all.
    package var noStore: Bool
    /// `no-cache` (without field names, which restrict it to those fields): revalidate before every use.
    package var noCache: Bool
    /// `must-revalidate` or `proxy-revalidate`: once stale, never served without revalidating.
    package var mustRevalidate: Bool

    /// The seconds left of the lifetime when the answer arrived, at least 0; `nil` when the answer gives no lifetime.
    package var freshFor: Double? {
        lifetime.map { max(0, $0 - age) }
    }

    /// An answer that says nothing of its freshness.
    package static let unknown = UpstreamFreshness(
        lifetime: nil, source: nil, age: 0, noStore: false, noCache: false, mustRevalidate: false)

    package init(
        lifetime: Double?, source: Source?, age: Double, noStore: Bool, noCache: Bool, mustRevalidate: Bool
    ) {
        self.lifetime = lifetime
        self.source = source
        self.age = age
        self.noStore = noStore
        self.noCache = noCache
        self.mustRevalidate = mustRevalidate
    }

    /// Reads an answer's `Cache-Control`, `Expires`, `Date` and `Age` fields (names in any case).
    ///
    /// - Parameters:
    ///   - headers: The answer's header fields, in order.
    ///   - now: When the answer arrived, in seconds since 1970.
    package init(headers: [(name: String, value: String)], now: Double) {
        func values(_ name: String) -> [String] {
            headers.filter { $0.name.lowercased() == name }.map(\.value)
        }
        let directives = CacheDirectives(fields: values("cache-control"))
        let date = values("date").first.flatMap { HTTPDate.parse($0, now: now) }
        self.init(
            directives: directives, date: date, expires: values("expires").first, age: values("age").first, now: now)
    }

    /// The freshness of an answer from its parts: `date` parsed, `expires` and `age` as received.
    package init(directives: CacheDirectives, date: Double?, expires: String?, age: String?, now: Double) {
        noStore = directives.has("no-store")
        // `no-cache="Set-Cookie"` names fields, which syncd does not keep: only the bare directive counts.
        noCache = directives.all.contains { $0.name == "no-cache" && $0.value == nil }
        mustRevalidate = directives.has("must-revalidate") || directives.has("proxy-revalidate")
        if directives.has("s-maxage") {
            (lifetime, source) = (directives["s-maxage"].flatMap(CacheDirectives.deltaSeconds) ?? 0, .sMaxAge)
        } else if directives.has("max-age") {
            (lifetime, source) = (directives["max-age"].flatMap(CacheDirectives.deltaSeconds) ?? 0, .maxAge)
        } else if let expires {
            // An Expires that is not a date (often "0" or "-1") means already expired (RFC 9111 §5.3).
            let expiry = HTTPDate.parse(expires, now: now)
            (lifetime, source) = (expiry.map { max(0, $0 - (date ?? now)) } ?? 0, .expires)
        } else {
            (lifetime, source) = (nil, nil)
        }
        // The first member of a list-based Age (RFC 9111 §5.1); an invalid one is ignored.
        let ageValue = age.flatMap { value in
            value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first.flatMap {
                CacheDirectives.deltaSeconds(String($0.trimmingASCIISpaces))
            }
        }
        let apparentAge = date.map { max(0, now - $0) } ?? 0
        self.age = max(apparentAge, ageValue ?? 0)
    }
}
