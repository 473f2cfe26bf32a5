package import SyncSupport

/// The scheduler's source of jitter: ``SplitMix64``, small, fast and `Sendable`, seeded from the system's generator or,
/// in tests, from a fixed seed so that every draw repeats.
///
/// Jitter only spreads polls out; nothing here needs cryptographic randomness.
///
/// ```swift
/// var machine = ScheduleStateMachine(endpoints: endpoints, concurrency: 4, now: 0, random: ScheduleRandom(seed: 7))
/// ```
package typealias ScheduleRandom = SplitMix64

extension SplitMix64 {
    /// A generator seeded from the system's random number generator.
    package init() {
        var system = SystemRandomNumberGenerator()
        self.init(seed: system.next())
    }
}
