import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncModel

/// `freshness`, `min_interval` and `max_interval`: read from `[defaults]` and `[[endpoint]]` alike, checked at
/// their lines, and the same from Swift.
@Suite("config: freshness, min_interval and max_interval")
struct ConfigurationFreshnessTests {
    static func endpoint(_ lines: String, defaults: String = "") throws -> SyncEndpoint {
        let configuration = try SyncConfiguration.parse(
            """
            \(defaults.isEmpty ? "" : "[defaults]\n" + defaults)
            [[endpoint]]
            name = "users"
            url = "https://example.com/users"
            \(lines)
            """, sourcePath: "syncd.toml")
        return try #require(configuration.endpoints.first)
    }

    @Test("unset, every poll waits the interval; upstream waits between min_interval and max_interval")
    func readsTheKeys() throws {
        let plain = try Self.endpoint("")
        #expect(plain.freshness == .interval && plain.freshnessBounds == nil)
        let upstream = try Self.endpoint(
            #"freshness = "upstream""# + "\n" + #"min_interval = "1m""# + "\n" + #"max_interval = "12h""#)
        #expect(upstream.freshness == .upstream)
        #expect(
            upstream.freshnessBounds?.minimum == .seconds(60) && upstream.freshnessBounds?.maximum == .seconds(43_200))
    }

    @Test("the shortest wait defaults to the interval, the longest to a day or the shortest if that is longer")
    func defaults() throws {
        let plain = try Self.endpoint(#"freshness = "upstream""# + "\n" + #"interval = "10m""#)
        #expect(plain.freshnessBounds?.minimum == .seconds(600) && plain.freshnessBounds?.maximum == .seconds(86_400))
        let slow = try Self.endpoint(#"freshness = "upstream""# + "\n" + #"interval = "2d""#)
        #expect(slow.freshnessBounds?.maximum == .seconds(2 * 86_400))
    }

    @Test("[defaults] sets them for every endpoint, and an endpoint sets them for itself")
    func inherited() throws {
        let inherited = try Self.endpoint("", defaults: #"freshness = "upstream""# + "\n" + #"max_interval = "6h""#)
        #expect(inherited.freshness == .upstream && inherited.freshnessBounds?.maximum == .seconds(21_600))
        let own = try Self.endpoint(#"freshness = "interval""#, defaults: #"freshness = "upstream""#)
        #expect(own.freshness == .interval)
    }

    @Test("a freshness that is neither, and a longest wait shorter than the shortest, are refused at their lines")
    func refusals() {
        let base = """
            [[endpoint]]
            name = "users"
            url = "https://example.com/users"

            """
        #expect(
            configurationProblems(base + #"freshness = "sometimes""#)
                == [#"syncd.toml:4: [[endpoint]] "users": freshness must be "interval" or "upstream""#])
        #expect(
            configurationProblems(
                base + #"freshness = "upstream""# + "\n" + #"min_interval = "1h""# + "\n" + #"max_interval = "1m""#)
                == [
                    #"syncd.toml:6: [[endpoint]] "users": max_interval must not be shorter than min_interval "#
                        + "(or the interval, when min_interval is not set)"
                ])
        #expect(
            configurationProblems(base + #"interval = "2h""# + "\n" + #"max_interval = "1h""#)
                == [
                    #"syncd.toml:5: [[endpoint]] "users": max_interval must not be shorter than min_interval "#
                        + "(or the interval, when min_interval is not set)"
                ])
    }

    @Test("an endpoint built in Swift is held to the same rules")
    func library() {
        var endpoint = SyncEndpoint(name: "users", url: "https://example.com/users")
        endpoint.freshness = .upstream
        endpoint.minInterval = .seconds(3600)
        endpoint.maxInterval = .seconds(60)
        #expect {
            try SyncConfiguration(endpoints: [endpoint])
        } throws: { error in
            "\(error)"
                == #"endpoint "users": max_interval must not be shorter than min_interval (or the interval, when "#
                + "min_interval is not set)"
        }
    }
}
