internal import FoundationEssentials

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
        parse(Array(text.utf8)[...].trimmingASCIISpaces, now: now)
    }

    /// An HTTP-date in any of its three forms, in seconds since 1970; `now` places a two-digit year.
    package static func parse(_ bytes: ArraySlice<UInt8>, now: Double) -> Double? {
        // The weekday tells the forms apart: "Sun," IMF-fixdate, "Sunday," rfc850-date, "Sun " asctime-date.
        var scanner = DateScanner(bytes: bytes)
        if scanner.name(in: DateScanner.weekdays) != nil, scanner.literal(",") {
            return scanner.imfFixdateRest()
        }
        scanner = DateScanner(bytes: bytes)
        if scanner.name(in: DateScanner.longWeekdays) != nil, scanner.literal(",") {
            return scanner.rfc850Rest(currentYear: year(at: now))
        }
        scanner = DateScanner(bytes: bytes)
        if scanner.name(in: DateScanner.weekdays) != nil {
            return scanner.asctimeRest()
        }
        return nil
    }

    private static func year(at time: Double) -> Int {
        let days = time.isFinite ? Int64(max(-1e15, min(1e15, time / 86_400)).rounded(.down)) : 0
        return CivilDate.fromDays(days).year
    }
}
