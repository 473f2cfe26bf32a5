import SyncHTTP
import SyncSupport
import Testing

/// How long an upstream's answer stays fresh, read from its headers as RFC 9111 has a shared cache read them.
@Suite("upstream freshness: Cache-Control, Expires, Date and Age")
struct UpstreamFreshnessTests {
    /// 2025-11-24T00:00:00Z.
    static let now = 1_763_942_400.0

    static func freshness(_ headers: [(String, String)]) -> UpstreamFreshness {
        UpstreamFreshness(headers: headers.map { (name: $0.0, value: $0.1) }, now: now)
    }

    @Test("max-age is the lifetime, less the Age the answer arrived with")
    func maxAgeLessAge() {
        let fresh = Self.freshness([("Cache-Control", "public, max-age=3600")])
        #expect(fresh.lifetime == 3600 && fresh.source == .maxAge && fresh.freshFor == 3600)
        let aged = Self.freshness([("Cache-Control", "max-age=3600"), ("Age", "600")])
        #expect(aged.age == 600 && aged.freshFor == 3000)
        let stale = Self.freshness([("Cache-Control", "max-age=60"), ("Age", "600")])
        #expect(stale.freshFor == 0)
    }

    @Test("s-maxage wins over max-age, and both over Expires: syncd is a shared cache")
    func precedence() {
        // GitHub's REST API answers so.
        let github = Self.freshness([("Cache-Control", "private, max-age=60, s-maxage=600")])
        #expect(github.lifetime == 600 && github.source == .sMaxAge)
        let both = Self.freshness([
            ("Expires", HTTPDate.format(seconds: Self.now + 86_400)), ("Cache-Control", "max-age=30"),
        ])
        #expect(both.lifetime == 30 && both.source == .maxAge)
    }

    @Test("Expires less Date, or less the arrival without a Date; an Expires that is no date is already expired")
    func expires() {
        let dated = Self.freshness([
            ("Date", HTTPDate.format(seconds: Self.now)), ("Expires", HTTPDate.format(seconds: Self.now + 300)),
        ])
        #expect(dated.lifetime == 300 && dated.source == .expires && dated.freshFor == 300)
        let undated = Self.freshness([("Expires", HTTPDate.format(seconds: Self.now + 120))])
        #expect(undated.freshFor == 120)
        for value in ["0", "-1", "yesterday"] {
            let expired = Self.freshness([("Expires", value)])
            #expect(expired.lifetime == 0 && expired.freshFor == 0, "Expires: \(value)")
        }
        let past = Self.freshness([("Expires", HTTPDate.format(seconds: Self.now - 10))])
        #expect(past.freshFor == 0)
    }

    @Test("the apparent age, since the answer's Date, counts when it is larger than its Age")
    func apparentAge() {
        let late = Self.freshness([
            ("Date", HTTPDate.format(seconds: Self.now - 100)), ("Cache-Control", "max-age=300"), ("Age", "40"),
        ])
        #expect(late.age == 100 && late.freshFor == 200)
        // A Date in the future (a fast upstream clock) is no negative age.
        let ahead = Self.freshness([("Date", HTTPDate.format(seconds: Self.now + 50)), ("Cache-Control", "max-age=9")])
        #expect(ahead.age == 0 && ahead.freshFor == 9)
    }

    @Test("invalid freshness is stale; an invalid Age is ignored; a list-based Age counts its first member")
    func invalid() {
        for value in ["max-age=soon", "max-age=-5", "max-age=1.5", "max-age=", "max-age", "s-maxage=x, max-age=60"] {
            #expect(Self.freshness([("Cache-Control", value)]).freshFor == 0, "Cache-Control: \(value)")
        }
        #expect(Self.freshness([("Cache-Control", "max-age=60"), ("Age", "-5")]).age == 0)
        #expect(Self.freshness([("Cache-Control", "max-age=60"), ("Age", "ten")]).age == 0)
        #expect(Self.freshness([("Cache-Control", "max-age=60"), ("Age", "10, 20")]).age == 10)
    }

    @Test("numbers are bounded: a delta-seconds past 2^31 counts as 2^31")
    func bounded() {
        let huge = Self.freshness([("Cache-Control", "max-age=" + String(repeating: "9", count: 400))])
        #expect(huge.lifetime == CacheDirectives.greatestDelta)
        let old = Self.freshness([("Cache-Control", "max-age=60"), ("Age", String(repeating: "9", count: 40))])
        #expect(old.age == CacheDirectives.greatestDelta && old.freshFor == 0)
        #expect(CacheDirectives.deltaSeconds("2147483647") == 2_147_483_647)
        #expect(CacheDirectives.deltaSeconds("2147483649") == 2_147_483_648)
        #expect(CacheDirectives.deltaSeconds("+5") == nil && CacheDirectives.deltaSeconds("") == nil)
    }

    @Test("no-store, bare no-cache, must-revalidate and proxy-revalidate are read; no-cache naming fields is not")
    func flags() {
        let store = Self.freshness([("Cache-Control", "no-store")])
        #expect(store.noStore && !store.noCache && store.lifetime == nil && store.freshFor == nil)
        #expect(Self.freshness([("Cache-Control", "no-cache")]).noCache)
        #expect(!Self.freshness([("Cache-Control", #"no-cache="Set-Cookie", max-age=60"#)]).noCache)
        #expect(Self.freshness([("Cache-Control", "max-age=0, must-revalidate")]).mustRevalidate)
        #expect(Self.freshness([("Cache-Control", "proxy-revalidate")]).mustRevalidate)
        #expect(Self.freshness([]) == .unknown)
    }

    @Test("directives: any case, quoted values, every field, the first of a repeated one, OWS around '='")
    func directives() {
        let directives = CacheDirectives(fields: [#"Public, MAX-AGE="60""#, "s-maxage = 5, max-age=120", "No-Store"])
        #expect(directives["max-age"] == "60")
        #expect(directives["s-maxage"] == "5")
        #expect(directives.has("public") && directives.has("no-store") && directives["public"] == nil)
        #expect(Self.freshness([("cache-control", "no-cache"), ("CACHE-CONTROL", "max-age=5")]).lifetime == 5)
        let escaped = CacheDirectives(fields: [#"ext="a\"b, c", max-age=7"#])
        #expect(escaped["ext"] == #"a"b, c"# && escaped["max-age"] == "7")
    }

    @Test("a malformed directive is skipped to its comma and the rest are read")
    func malformed() {
        let junk = CacheDirectives(fields: ["max-age=60 junk, no-store", "=5, max-age=9", "(x), public"])
        #expect(junk.all.map(\.name) == ["no-store", "max-age", "public"])
        #expect(junk["max-age"] == "9")
        // A quoted-string left open takes the rest of its field with it, and only that field.
        let open = CacheDirectives(fields: [#"foo="abc, max-age=5"#, "max-age=6"])
        #expect(open.all.map(\.name) == ["max-age"] && open["max-age"] == "6")
        #expect(CacheDirectives(fields: [",,, ,", ""]).all.isEmpty)
    }

    @Test("at most 64 directives are kept from any number of fields")
    func limit() {
        let many = CacheDirectives(fields: Array(repeating: String(repeating: "a, ", count: 50), count: 100))
        #expect(many.all.count == CacheDirectives.limit)
    }
}
