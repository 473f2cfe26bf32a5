extension Duration {
    /// The longest wait syncd computes from a count of seconds: about 31 years. Far below the 292 years that
    /// 64-bit nanoseconds hold, so that converting it to whole units never overflows.
    static let longestWaitSeconds = 1_000_000_000.0

    /// `seconds` in whole milliseconds (rounded by `rule`), clamped to `0...longestWaitSeconds`: a NaN or negative
    /// count is zero, and a count that came from an upstream's header or a configured value never traps.
    package static func milliseconds(clampingSeconds seconds: Double, rule: FloatingPointRoundingRule = .towardZero)
        -> Duration
    {
        .milliseconds(Int64((clamped(seconds) * 1000).rounded(rule)))
    }

    /// `seconds` in whole nanoseconds (truncated), clamped as ``milliseconds(clampingSeconds:rule:)`` is.
    package static func nanoseconds(clampingSeconds seconds: Double) -> Duration {
        .nanoseconds(Int64(clamped(seconds) * 1_000_000_000))
    }

    private static func clamped(_ seconds: Double) -> Double {
        if seconds.isNaN { return 0 }
        return Swift.min(Swift.max(seconds, 0), longestWaitSeconds)
    }
}

extension Duration {
    /// The duration in seconds, as the scheduler's `Double` time unit.
    package var scheduleSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
