import Testing

@testable import SyncCore

/// Freshness reads its times from the database file: a time no clock could reach must not trap in `Int(_:)`.
@Suite("Freshness from times out of any clock's reach")
struct FreshnessBoundsTests {
    @Test(
        "whole seconds are rounded down, and clamped where Int(_:) would trap",
        arguments: [
            (12.7, 12), (-0.5, -1), (1e300, 1 << 53), (-1e300, -(1 << 53)), (Double.infinity, 0), (Double.nan, 0),
        ])
    func wholeSeconds(_ seconds: Double, _ expected: Int) {
        #expect(SyncCache.Freshness.wholeSeconds(seconds) == expected)
    }
}
