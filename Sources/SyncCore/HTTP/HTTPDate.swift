internal import Foundation

/// IMF-fixdate, the date format of Last-Modified and If-Modified-Since (RFC 9110 §5.6.7).
package enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    static func format(_ date: Date) -> String {
        format(seconds: date.timeIntervalSince1970)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for seconds since 1970 (the fraction dropped), clamped to the years
    /// 0000…9999 (a file's modification time is whatever the file system holds; NaN counts as 1970).
    package static func format(seconds time: Double) -> String {
        let bounded = time.isNaN ? 0 : min(max(time, -62_167_219_200), 253_402_300_799)
        let seconds = Int64(bounded.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = CivilDate.fromDays(days)
        let weekday = Int(((days % 7) + 11) % 7)  // 1970-01-01 was a Thursday
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return "\(weekdays[weekday]), \(two(day)) \(months[month - 1]) \(year) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }

    /// Seconds since 1970 of an HTTP-date in any of its three forms (If-Modified-Since); `nil` when it is none.
    /// `now` places an rfc850 two-digit year.
    package static func parse(_ text: String, now: Double) -> Double? {
        var bytes = Array(text.utf8)[...]
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { bytes.removeFirst() }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes.removeLast() }
        return RetryAfter.date(bytes, now: now)
    }
}

/// Proleptic Gregorian calendar arithmetic (Howard Hinnant's days_from_civil and civil_from_days).
package enum CivilDate {
    /// Days since 1970-01-01.
    package static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a count of days since 1970-01-01.
    package static func fromDays(_ days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = Int(doy - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        let year = Int(yoe + era * 400) + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
