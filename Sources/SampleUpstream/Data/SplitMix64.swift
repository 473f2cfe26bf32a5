import SyncCore
import SyncSupport

/// Sample data's use of SyncCore's seeded generator. The standard library's `random(in:using:)` is free to change its
/// algorithm between releases; `below(_:)` is ours and does not.
extension SplitMix64 {
    /// A generator for one of several independent streams derived from the same key, e.g. a user's id.
    init(key: Int, stream: UInt64) {
        self.init(seed: (UInt64(truncatingIfNeeded: key) &* 0x9E37_79B9_7F4A_7C15) ^ (stream &* 0xD1B5_4A32_D192_ED03))
    }

    /// A number in `0..<bound` (multiply-shift; the bias is far below anything sample data cares about).
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "below(_:) needs a positive bound")
        return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A number in `range`.
    mutating func inRange(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with the given chance in percent.
    mutating func percent(_ chance: Int) -> Bool {
        below(100) < chance
    }

    /// One element of a non-empty word list.
    mutating func pick(_ words: [String]) -> Int {
        below(words.count)
    }
}
