/// Durations for people, in the configuration's own units: 500ms, 30s, 5m, 1h30m.
package enum DurationText {
    package static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        // Int128: a duration of Int64.max milliseconds (the longest the configuration can write) is past Int64 here.
        let milliseconds = Int128(seconds) * 1000 + Int128(attoseconds / 1_000_000_000_000_000)
        if milliseconds == 0 { return "0s" }
        // Largest unit first, as the configuration writes them: 183845006 ms is 2d3h4m5s6ms.
        var remaining = milliseconds
        var text = ""
        let units = [("d", Int128(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1)]
        for (unit, size) in units where remaining >= size {
            text += "\(remaining / size)\(unit)"
            remaining %= size
        }
        return text
    }
}
