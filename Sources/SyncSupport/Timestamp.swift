#if canImport(Glibc)
    internal import Glibc  // pow
#else
    internal import Darwin
#endif

/// syncd's own timestamps (run times, `_changed_at`): RFC 3339 in UTC with milliseconds,
/// `2024-05-01T12:00:00.250Z`, which sorts as text and which SQLite's date functions read.
package enum Timestamp {
    /// Formats seconds since 1970-01-01T00:00:00Z, clamped to the years 0000…9999 (NaN counts as 1970).
    package static func format(_ seconds: Double) -> String {
        // 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z: no Double traps the conversion below.
        let bounded = seconds.isNaN ? 0 : min(max(seconds, -62_167_219_200), 253_402_300_799.999)
        let milliseconds = Int64((bounded * 1000).rounded(.down))
        let days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
        let msOfDay = Int(milliseconds - days * 86_400_000)
        let (year, month, day) = CivilDate.fromDays(days)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let seconds = msOfDay / 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2))"
            + ":\(pad(seconds % 60, 2)).\(pad(msOfDay % 1000, 3))Z"
    }

    /// Seconds since 1970 of what ``format(_:)`` wrote (and second-precision `…Z` forms); `nil` for anything else.
    package static func parse(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes.last == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? { Int(String(decoding: bytes[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var fraction = 0.0
        if bytes.count > 21, bytes[19] == UInt8(ascii: "."), let digits = number(20..<(bytes.count - 1)) {
            fraction = Double(digits) / pow(10, Double(bytes.count - 21))
        }
        let days = CivilDate.days(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + Int64(hour * 3600 + minute * 60 + second)) + fraction
        return seconds
    }
}
