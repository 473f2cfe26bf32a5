/// Sizes as the configuration writes them: `64MiB`, `512KiB`, `1GiB` (powers of 1024), `10MB`, `100kB`
/// (powers of 1000), `1024B` or a bare number of bytes. A TOML integer is a number of bytes.
package enum ByteSize {
    private static let units: [(suffix: String, multiplier: Int)] = [
        ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("TiB", 1 << 40),
        ("kB", 1_000), ("KB", 1_000), ("MB", 1_000_000), ("GB", 1_000_000_000), ("TB", 1_000_000_000_000),
        ("B", 1), ("", 1),
    ]

    /// Parses a size in bytes, or returns nil when the text is not one or does not fit in an `Int`.
    package static func parse(_ text: String) -> Int? {
        let digits = text.prefix { ("0"..."9").contains($0) }
        guard !digits.isEmpty, digits.count <= 19, let number = Int(digits) else { return nil }
        var suffix = text.dropFirst(digits.count)
        if suffix.first == " " { suffix = suffix.dropFirst() }
        guard !(suffix.isEmpty && text.last == " "),
            let unit = units.first(where: { $0.suffix == suffix })
        else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: unit.multiplier)
        return overflow ? nil : bytes
    }

    /// A size exactly, in the unit that writes it with the fewest digits: `1 MB` for 1,000,000 bytes, `16 MiB`
    /// for 16,777,216, `1500 B` for 1,500. Limits are printed this way, so a message repeats what was configured
    /// rather than a rounded `976.6 KiB`; it parses back.
    package static func format(_ bytes: Int) -> String {
        var best = (number: bytes, suffix: "B")
        for unit in units where unit.multiplier > 1 && unit.suffix != "KB" && bytes % unit.multiplier == 0 {
            let number = bytes / unit.multiplier
            if number < best.number { best = (number, unit.suffix) }
        }
        return "\(best.number) \(best.suffix)"
    }
}
