import Testing

@testable import SyncCore
@testable import SyncSupport

/// Durations print in the configuration's own units, largest first, so what is printed can be written back.
@Suite("DurationText")
struct DurationTextTests {
    @Test(
        "a duration prints as days, hours, minutes, seconds and milliseconds, and parses back",
        arguments: [
            (Int64(183_845_006), "2d3h4m5s6ms"), (500, "500ms"), (90_000, "1m30s"), (1_500, "1s500ms"),
            (86_400_000, "1d"),
        ])
    func compound(_ milliseconds: Int64, _ text: String) {
        #expect(DurationText.format(.milliseconds(milliseconds)) == text)
        #expect(ConfigDuration.parse(text) == .milliseconds(milliseconds))
    }
}
