/// The scheduler's source of jitter: SplitMix64, small, fast and `Sendable`, seeded from the system's generator or,
/// in tests, from a fixed seed so that every draw repeats.
///
/// Jitter only spreads polls out; nothing here needs cryptographic randomness.
///
/// ```swift
/// var machine = ScheduleStateMachine(endpoints: endpoints, concurrency: 4, now: 0, random: ScheduleRandom(seed: 7))
/// ```
///
/// ## Topics
///
/// - ``init()``
/// - ``init(seed:)``
/// - ``next()``
package struct ScheduleRandom: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// A generator seeded from the system's random number generator.
    package init() {
        var system = SystemRandomNumberGenerator()
        self.init(seed: system.next())
    }

    /// A generator whose draws are fixed by `seed`.
    ///
    /// - Parameter seed: Any value; equal seeds give equal sequences.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    ///
    /// - Returns: A value uniformly distributed over `UInt64`.
    package mutating func next() -> UInt64 {
        // SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014).
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
