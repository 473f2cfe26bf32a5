import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncModel
@testable import SyncSupport

/// Every numeric key has a range (``ConfigurationBounds``): a value outside it is refused with the line, the key
/// and the range, and the values at both ends are accepted.
@Suite("config: numbers out of range are refused with the allowed range")
struct ConfigurationBoundsTests {
    /// The problems of one `[[endpoint]]` (line 1) holding `line` on line 7, with columns so that pagination and
    /// incremental settings can be resolved.
    static func problems(_ line: String, mode: String = "snapshot") -> [String] {
        configurationProblems(
            """
            [[endpoint]]
            name = "users"
            url = "https://example.com/users"
            records = "$"
            primary_key = "id"
            mode = "\(mode)"
            \(line)

            [endpoint.columns]
            id = { path = "id", type = "integer" }
            updated_at = { path = "updated_at", type = "timestamp" }
            """
        )
    }

    static func refusal(_ message: String) -> [String] {
        [#"syncd.toml:7: [[endpoint]] "users": \#(message)"#]
    }

    @Test(
        "values that used to pass check-config and then trap or misbehave are refused, naming the range",
        arguments: [
            (#"timeout = "106752d""#, "timeout must be between 100ms and 1d"),
            (#"interval = "200000d""#, "interval must be between 100ms and 30d"),
            (#"interval = "50ms""#, "interval must be between 100ms and 30d"),
            (#"retry_max_delay = "106751d""#, "retry_max_delay must be between 10ms and 1d"),
            (#"max_body = "5GiB""#, "max_body must be between 1B and 2GiB"),
            (#"max_body = 4294967296"#, "max_body must be between 1B and 2GiB"),
            (#"max_record = "2GiB""#, "max_record must be between 1KiB and 1GiB"),
            (#"max_record = 100"#, "max_record must be between 1KiB and 1GiB"),
            (#"rate_limit = "2000000/s""#, "rate_limit must allow from 1 to 1000000 requests per period"),
            (#"retries = 101"#, "retries must be a whole number from 0 to 100"),
            (#"min_interval = "50ms""#, "min_interval must be between 100ms and 30d"),
            (#"max_interval = "31d""#, "max_interval must be between 100ms and 30d"),
            (
                #"pagination = { type = "page", param = "page", start = 9223372036854775807 }"#,
                "pagination: start must be a whole number from 0 to 1000000000"
            ),
            (
                #"pagination = { type = "page", param = "page", size = 1000001 }"#,
                "pagination: size must be a whole number from 1 to 1000000"
            ),
            (
                #"pagination = { type = "offset", param = "o", limit = 9223372036854775807 }"#,
                "pagination: limit must be a whole number from 1 to 1000000"
            ),
            (
                #"pagination = { type = "link", max_pages = 9223372036854775807 }"#,
                "pagination: max_pages must be a whole number from 1 to 1000000"
            ),
        ])
    func outOfRange(line: String, message: String) {
        #expect(Self.problems(line) == Self.refusal(message))
    }

    @Test("an incremental lag beyond 30 days is refused with the range")
    func lag() {
        let line = #"incremental = { param = "since", column = "updated_at", lag = "31d" }"#
        #expect(
            Self.problems(line, mode: "incremental") == Self.refusal("incremental: lag must be between 0s and 30d"))
    }

    @Test("concurrency in [defaults] names its range")
    func concurrency() {
        #expect(
            configurationProblems("[defaults]\nconcurrency = 65") == [
                "syncd.toml:2: [defaults]: concurrency must be an integer from 1 to 64"
            ])
    }

    @Test("stop_grace is read from [defaults] only, 0s to 1h; unset, it is 10 s")
    func stopGrace() throws {
        #expect(try SyncConfiguration.parse("", sourcePath: "syncd.toml").stopGrace == .seconds(10))
        #expect(try SyncConfiguration.parse("[defaults]\nstop_grace = \"0s\"", sourcePath: "s").stopGrace == .zero)
        #expect(
            try SyncConfiguration.parse("[defaults]\nstop_grace = \"1h\"", sourcePath: "s").stopGrace == .seconds(3600))
        #expect(
            configurationProblems("[defaults]\nstop_grace = \"61m\"") == [
                "syncd.toml:2: [defaults]: stop_grace must be between 0s and 1h"
            ])
        #expect(
            configurationProblems("[[endpoint]]\nname = \"a\"\nurl = \"https://example.com/a\"\nstop_grace = \"1m\"")
                == [
                    #"syncd.toml:4: [[endpoint]] "a": "stop_grace" is only valid in [defaults]: it is the daemon's, "#
                        + "for every endpoint"
                ])
    }

    @Test("a value out of range in [defaults] is refused once, at its line, however many endpoints inherit it")
    func defaultsOutOfRangeOnce() {
        let problems = configurationProblems(
            """
            [defaults]
            interval = "50ms"
            retries = "3"

            [[endpoint]]
            name = "a"
            url = "https://example.com/a"

            [[endpoint]]
            name = "b"
            url = "https://example.com/b"
            timeout = "2d"
            """)
        #expect(
            problems == [
                "syncd.toml:2: [defaults]: interval must be between 100ms and 30d",
                "syncd.toml:3: [defaults]: retries must be a whole number from 0 to 100",
                #"syncd.toml:12: [[endpoint]] "b": timeout must be between 100ms and 1d"#,
            ])
    }

    @Test(
        "the ends of every range are accepted",
        arguments: [
            #"timeout = "100ms""#, #"timeout = "1d""#, #"interval = "1s""#, #"interval = "30d""#,
            #"retry_max_delay = "1s""#, #"retry_max_delay = "24h""#, #"max_body = 1"#, #"max_body = "2GiB""#,
            #"rate_limit = "1000000/s""#, #"retries = 0"#, #"retries = 100"#, #"min_interval = "100ms""#,
            #"max_interval = "30d""#,
            #"pagination = { type = "page", param = "page", start = 1000000000, size = 1000000 }"#,
            #"pagination = { type = "offset", param = "o", limit = 1, max_pages = 1000000 }"#,
        ])
    func ends(line: String) {
        #expect(Self.problems(line) == [])
    }

    @Test("the ranges are described in the configuration's own units")
    func descriptions() {
        #expect(ConfigurationBounds.describe(ConfigurationBounds.interval) == "between 100ms and 30d")
        #expect(ConfigurationBounds.describe(ConfigurationBounds.timeout) == "between 100ms and 1d")
        #expect(ConfigurationBounds.describe(bytes: ConfigurationBounds.maxBody) == "between 1B and 2GiB")
        #expect(ConfigurationBounds.sizeText(1536 << 10) == "1536KiB")
        // The longest duration the file can write no longer traps its own description.
        #expect(DurationText.format(.milliseconds(Int64.max)) == "106751991167d7h12m55s807ms")
        #expect(DurationText.format(.milliseconds(Int64.max - 807)) == "106751991167d7h12m55s")
    }

    @Test(
        "an endpoint built in Swift is refused the reserved names the TOML file is refused, with the same sentence",
        arguments: ["syncd_runs", "sqlite_master", "Users"])
    func reservedNames(_ name: String) throws {
        let toml = """
            [[endpoint]]
            name = "\(name)"
            url = "https://example.com/users"
            """
        var fromFile = ""
        do { _ = try SyncConfiguration.parse(toml, sourcePath: "syncd.toml") } catch { fromFile = "\(error)" }
        var fromSwift = ""
        do {
            _ = try SyncConfiguration(endpoints: [SyncEndpoint(name: name, url: "https://example.com/users")])
        } catch {
            fromSwift = "\(error)"
        }
        let clause = try #require(NameRules.endpointProblem(name))
        #expect(fromFile.hasSuffix(": " + clause), "\(fromFile)")
        #expect(fromSwift == "endpoint \"\(name)\": " + clause)
    }

    @Test("an embedder's endpoint built in Swift is held to the same ranges")
    func library() {
        let endpoint = SyncEndpoint(
            name: "users", url: "https://example.com/users", interval: .seconds(200_000 * 86_400))
        #expect {
            try SyncConfiguration(endpoints: [endpoint])
        } throws: { error in
            "\(error)" == #"endpoint "users": interval must be between 100ms and 30d"#
        }
    }
}
