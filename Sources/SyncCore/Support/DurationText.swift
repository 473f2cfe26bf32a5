/// Durations for people, in the configuration's own units: 500ms, 30s, 5m, 1h30m.
package enum DurationText {
    package static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        // Int128: a duration of Int64.max milliseconds (the longest the configuration can write) is past Int64 here.
        let milliseconds = Int128(seconds) * 1000 + Int128(attoseconds / 1_000_000_000_000_000)
        if milliseconds == 0 { return "0s" }
        if milliseconds % 1000 != 0 { return "\(milliseconds)ms" }
        var remaining = milliseconds / 1000
        var text = ""
        for (unit, size) in [("d", Int128(86_400)), ("h", 3600), ("m", 60), ("s", 1)] where remaining >= size {
            text += "\(remaining / size)\(unit)"
            remaining %= size
        }
        return text
    }
}
