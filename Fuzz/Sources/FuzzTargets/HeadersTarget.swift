import SyncCore
import SyncHTTP
import SyncServe
import SyncSupport

/// The header parsers: `Link`, `Retry-After`, `RateLimit-*`/`X-RateLimit-*`, HTTP-dates, `If-None-Match`, the
/// status page's `Accept`, and an upstream's freshness (`Cache-Control`, `Expires`, `Date`, `Age`).
///
/// Input: one byte choosing the parser — `L`ink, `R`etry-After, `X` rate limit, `D`ate, `E`Tag, `A`ccept,
/// `C`ache-Control (any other byte picks by its value) — then the header value; newlines separate fields where a
/// parser takes several.
enum HeadersTarget {
    /// 2025-11-24T00:00:00Z: the clock is ours, not the input's.
    static let now = 1_763_942_400.0
    static let base = "https://api.example.com/v1/users?page=2"
    /// The last second of 9999: a date up to it formats as an IMF-fixdate.
    static let lastFormattable = 253_402_300_799.0

    static func run(_ input: UnsafeBufferPointer<UInt8>) throws(FuzzFailure) {
        guard let first = input.first else { return }
        let text = String(decoding: input.dropFirst(), as: UTF8.self)
        // A letter names a parser; any other byte picks one by its value.
        let letters: [UInt8] = Array("LRXDEAC".utf8)
        switch letters.firstIndex(of: first) ?? Int(first) % letters.count {
        case 0: try link(text)
        case 1: try retryAfter(text)
        case 2: try rateLimit(text)
        case 3: try date(text)
        case 4: try entityTags(text)
        case 5: try accept(text)
        default: try freshness(text)
        }
    }

    /// JSON is chosen only when the value names a JSON type, and never once it also names HTML.
    static func accept(_ text: String) throws(FuzzFailure) {
        guard AcceptHeader.wantsJSON(text) else { return }
        try require(text.lowercased().contains("json"), "Accept \(text.debugDescription) chose JSON without naming it")
        try require(
            !AcceptHeader.wantsJSON(text + ", text/html"), "Accept \(text.debugDescription), text/html chose JSON")
    }

    /// Directives are lowercase tokens, at most ``CacheDirectives/limit``, and read back the same when written out
    /// again; the freshness read from the lines as `Cache-Control`, `Expires`, `Date` and `Age` is bounded.
    static func freshness(_ text: String) throws(FuzzFailure) {
        let lines = fields(text)
        let directives = CacheDirectives(fields: lines)
        try require(directives.all.count <= CacheDirectives.limit, "\(directives.all.count) directives")
        for directive in directives.all {
            try require(
                HTTPHeaderSyntax.isToken(directive.name) && directive.name == directive.name.lowercased(),
                "directive name \(directive.name.debugDescription) from \(text.debugDescription)")
        }
        let written = directives.all.map { directive in
            guard let value = directive.value else { return directive.name }
            let escaped = value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            return "\(directive.name)=\"\(escaped)\""
        }
        try require(
            CacheDirectives(fields: [written.joined(separator: ", ")]) == directives,
            "\(text.debugDescription) read back otherwise from \(written)")
        let names = ["Cache-Control", "Expires", "Date", "Age"]
        let headers = zip(names, lines + ["", "", "", ""]).map { (name: $0.0, value: $0.1) }
        let freshness = UpstreamFreshness(headers: headers, now: now)
        // Dates are finite (HTTPDate reads four-digit years), so is every difference of two.
        try require(freshness.age >= 0 && freshness.age.isFinite, "age \(freshness.age) from \(headers)")
        try require(
            freshness.lifetime.map { $0 >= 0 && $0.isFinite } ?? true,
            "lifetime \(freshness.lifetime ?? 0) from \(headers)")
        if let left = freshness.freshFor {
            try require(
                left >= 0 && left.isFinite && left <= (freshness.lifetime ?? 0), "fresh for \(left) from \(headers)")
        }
    }

    static func fields(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static func link(_ text: String) throws(FuzzFailure) {
        let fields = fields(text)
        guard let next = LinkHeader.next(in: fields) else { return }
        let targets = fields.flatMap { LinkHeader.links(in: $0).map(\.target) }
        try require(targets.contains(next), "next \(next.debugDescription) is none of the links' targets \(targets)")
        if let resolved = PageURL.resolve(next, against: base) {
            try require(
                resolved.lowercased().hasPrefix("http://") || resolved.lowercased().hasPrefix("https://"),
                "next \(next.debugDescription) resolved to \(resolved.debugDescription)")
        }
    }

    static func retryAfter(_ text: String) throws(FuzzFailure) {
        guard let seconds = RetryAfter.seconds(text, now: now) else { return }
        try require(seconds >= 0 && !seconds.isNaN, "Retry-After \(text.debugDescription) gave \(seconds)")
        // Both read HTTP-dates alike.
        if let date = HTTPDate.parse(text, now: now) {
            try require(
                seconds == max(0, date - now), "Retry-After \(text.debugDescription): \(seconds) s, as a date \(date)")
        }
    }

    static func rateLimit(_ text: String) throws(FuzzFailure) {
        let values = fields(text) + [String](repeating: "", count: 4)
        func value(_ index: Int) -> String? { values[index].isEmpty ? nil : values[index] }
        guard
            let headers = RateLimitHeaders(
                ietfRemaining: value(0), ietfReset: value(1), legacyRemaining: value(2), legacyReset: value(3))
        else { return }
        try require((0...1_000_000_000).contains(headers.remaining), "remaining \(headers.remaining) from \(values)")
        if let seconds = headers.secondsUntilReset(now: now) {
            try require(seconds >= 0 && seconds.isFinite, "reset in \(seconds) s from \(values)")
        }
    }

    static func date(_ text: String) throws(FuzzFailure) {
        guard let date = HTTPDate.parse(text, now: now) else { return }
        try require(date.isFinite && date == date.rounded(.down), "\(text.debugDescription) gave \(date)")
        // What parses formats back to itself, and that parses to the same time.
        guard (0...lastFormattable).contains(date) else { return }
        let formatted = HTTPDate.format(seconds: date)
        try require(
            HTTPDate.parse(formatted, now: now) == date,
            "\(text.debugDescription) gave \(date), formatted \(formatted.debugDescription), which parses otherwise")
    }

    static func entityTags(_ text: String) throws(FuzzFailure) {
        for tag in EntityTag.tags(in: text) {
            try require(
                EntityTag.ifNoneMatch(text, matches: String(tag)),
                "If-None-Match \(text.debugDescription) lists \(tag) but does not match it")
            try require(
                EntityTag.ifNoneMatch(text, matches: "W/" + tag),
                "If-None-Match \(text.debugDescription) lists \(tag) but does not match it weakly")
        }
        // An instance id as syncd makes them: ASCII letters and digits.
        let instance = String(
            text.unicodeScalars.filter {
                $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)
            }.prefix(40))
        let made = EntityTag.make(instance: instance, version: 7)
        try require(EntityTag.ifNoneMatch(made, matches: made), "\(made) does not match itself")
        try require(EntityTag.ifNoneMatch(made + ", " + text, matches: made), "a list starting with \(made)")
    }
}
