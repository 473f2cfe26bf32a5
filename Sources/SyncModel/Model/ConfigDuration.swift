/// Durations as the configuration writes them: `500ms`, `30s`, `5m`, `1h`, `1d`, and combinations from the
/// largest unit down, such as `1h30m` or `1m30s`.
package enum ConfigDuration {
    private static let units: [(suffix: String, milliseconds: Int64)] = [
        ("d", 86_400_000), ("h", 3_600_000), ("ms", 1), ("m", 60_000), ("s", 1_000),
    ]
    /// Units from the largest down; a duration may use each once, in this order.
    private static let order = ["d", "h", "m", "s", "ms"]

    /// Parses a duration, or returns nil when the text is not one (or does not fit in 64-bit milliseconds).
    package static func parse(_ text: String) -> Duration? {
        var rest = Substring(text)
        var total: Int64 = 0
        var lastUnit = -1
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let digits = rest.prefix { ("0"..."9").contains($0) }
            guard !digits.isEmpty, digits.count <= 18, let number = Int64(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            // "ms" is listed before "m" so that it is matched first.
            guard let unit = units.first(where: { rest.hasPrefix($0.suffix) }),
                let position = order.firstIndex(of: unit.suffix), position > lastUnit
            else { return nil }
            lastUnit = position
            rest = rest.dropFirst(unit.suffix.count)
            let (product, overflow) = number.multipliedReportingOverflow(by: unit.milliseconds)
            let (sum, sumOverflow) = total.addingReportingOverflow(product)
            guard !overflow, !sumOverflow else { return nil }
            total = sum
        }
        return .milliseconds(total)
    }
}
