/// HTTP dates in the IMF-fixdate form of RFC 9110 §5.6.7 (`Sun, 06 Nov 1994 08:49:37 GMT`), as seconds since 1970.
///
/// Written without Foundation: the demo only needs whole seconds in UTC.
enum HTTPDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(secondsSince1970 seconds: Int) -> String {
        let (days, secondOfDay) = seconds.floorDivided(by: 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        let weekday = weekdays[days.floorDivided(by: 7).remainder]
        return "\(weekday), \(padded(day, 2)) \(months[month - 1]) \(padded(year, 4)) "
            + "\(padded(secondOfDay / 3600, 2)):\(padded(secondOfDay / 60 % 60, 2)):\(padded(secondOfDay % 60, 2)) GMT"
    }

    /// The seconds since 1970 of an IMF-fixdate, or `nil` if `text` is not one (a recipient ignores such a date).
    static func parse(_ text: String) -> Int? {
        let fields = text.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 6, fields[0].count == 4, fields[0].last == ",", fields[5] == "GMT",
            let day = Int(fields[1]), fields[1].count == 2,
            let monthIndex = months.firstIndex(where: { $0 == fields[2] }),
            let year = Int(fields[3]), fields[3].count == 4
        else {
            return nil
        }
        let time = fields[4].split(separator: ":", omittingEmptySubsequences: false)
        guard time.count == 3, time.allSatisfy({ $0.count == 2 }),
            let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2]),
            (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else {
            return nil
        }
        let days = daysSince1970(year: year, month: monthIndex + 1, day: day)
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Howard Hinnant's `civil_from_days`.
    private static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = shifted.floorDivided(by: 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// Howard Hinnant's `days_from_civil`.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = year.floorDivided(by: 400).quotient
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension Int {
    /// Division rounding toward negative infinity, so the remainder is never negative for a positive divisor.
    fileprivate func floorDivided(by divisor: Int) -> (quotient: Int, remainder: Int) {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
