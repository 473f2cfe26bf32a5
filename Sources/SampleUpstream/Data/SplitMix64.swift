/// A small seeded pseudo-random generator (SplitMix64), so sample data is the same on every run and platform.
///
/// The standard library's `random(in:using:)` is free to change its algorithm between releases; `below(_:)` is ours
/// and does not.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    /// A generator for one of several independent streams derived from the same key, e.g. a user's id.
    init(key: Int, stream: UInt64) {
        self.init(seed: (UInt64(truncatingIfNeeded: key) &* 0x9E37_79B9_7F4A_7C15) ^ (stream &* 0xD1B5_4A32_D192_ED03))
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
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
