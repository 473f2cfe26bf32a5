/// Durations for people, in the configuration's own units: 500ms, 30s, 5m, 1h30m.
package enum DurationText {
    package static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 != 0 || milliseconds == 0 { return "\(milliseconds)ms" }
        var remaining = milliseconds / 1000
        var text = ""
        for (unit, size) in [("d", Int64(86_400)), ("h", 3600), ("m", 60), ("s", 1)] where remaining >= size {
            text += "\(remaining / size)\(unit)"
            remaining %= size
        }
        return text
    }
}
