import SyncSupport
import Testing

@testable import SyncCore

@Suite("Durations and sizes as the configuration writes them")
struct ConfigDurationAndByteSizeTests {
    @Test(
        "durations",
        arguments: [
            ("500ms", Duration.milliseconds(500)),
            ("30s", .seconds(30)),
            ("5m", .seconds(300)),
            ("1h", .seconds(3600)),
            ("1d", .seconds(86400)),
            ("1h30m", .seconds(5400)),
            ("1m30s", .seconds(90)),
            ("2d3h4m5s6ms", .milliseconds(183_845_006)),
            ("0s", .zero),
            ("90s", .seconds(90)),
        ]
    )
    func duration(text: String, expected: Duration) {
        #expect(ConfigDuration.parse(text) == expected)
    }

    @Test(
        "not durations",
        arguments: [
            "", "5", "m", "5x", "5 m", " 5m", "5m ", "-5s", "+5s", "1.5s", "5M", "30m1h", "1h1h", "1ms1s",
            "5mm", "99999999999999999999ms", "999999999999999999d",
        ]
    )
    func notDuration(text: String) {
        #expect(ConfigDuration.parse(text) == nil)
    }

    @Test(
        "sizes",
        arguments: [
            ("64MiB", 67_108_864),
            ("512KiB", 524_288),
            ("1GiB", 1_073_741_824),
            ("2TiB", 2_199_023_255_552),
            ("10MB", 10_000_000),
            ("100kB", 100_000),
            ("100KB", 100_000),
            ("1GB", 1_000_000_000),
            ("1024B", 1024),
            ("1024", 1024),
            ("64 MiB", 67_108_864),
            ("0B", 0),
        ]
    )
    func size(text: String, expected: Int) {
        #expect(ByteSize.parse(text) == expected)
    }

    @Test(
        "not sizes",
        arguments: [
            "", "MiB", "64mib", "64 ", "64  MiB", "-1B", "1.5MiB", "64MiBs", "64Mi", "9999999999TiB",
            "99999999999999999999",
        ]
    )
    func notSize(text: String) {
        #expect(ByteSize.parse(text) == nil)
    }

    @Test("a TOML integer max_body is a number of bytes")
    func integerMaxBody() throws {
        let configuration = try SyncConfiguration.parse(
            "[defaults]\nmax_body = 4096\n[[endpoint]]\nname = \"a\"\nurl = \"https://e.com\"", sourcePath: "x")
        #expect(configuration.plans.first?.maxBody == 4096)
    }
}
