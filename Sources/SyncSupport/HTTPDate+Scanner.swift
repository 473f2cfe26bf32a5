extension HTTPDate {
    /// A cursor over the bytes of an HTTP-date (RFC 9110 §5.6.7), after the weekday that tells its form.
    struct DateScanner {
        static let weekdays = names("Mon Tue Wed Thu Fri Sat Sun")
        static let longWeekdays = names("Monday Tuesday Wednesday Thursday Friday Saturday Sunday")
        static let months = names("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec")

        var bytes: ArraySlice<UInt8>

        /// `SP 2DIGIT SP month SP 4DIGIT SP time-of-day SP GMT`, the rest of an IMF-fixdate.
        mutating func imfFixdateRest() -> Double? {
            guard literal(" "), let day = number(digits: 2), literal(" "), let month = name(in: Self.months),
                literal(" "), let year = number(digits: 4), literal(" "), let time = timeOfDay(), literal(" GMT"),
                bytes.isEmpty
            else { return nil }
            return Self.timestamp(year: year, month: month + 1, day: day, seconds: time)
        }

        /// `SP 2DIGIT "-" month "-" 2DIGIT SP time-of-day SP GMT`, the rest of an rfc850-date.
        ///
        /// The two-digit year is the one with those digits in the 100 years around `currentYear`, the latest
        /// being 50 years ahead: §5.6.7 reads a year more than 50 years in the future as the most recent past one.
        mutating func rfc850Rest(currentYear: Int) -> Double? {
            guard literal(" "), let day = number(digits: 2), literal("-"), let month = name(in: Self.months),
                literal("-"), let twoDigits = number(digits: 2), literal(" "), let time = timeOfDay(),
                literal(" GMT"), bytes.isEmpty
            else { return nil }
            var year = currentYear - currentYear % 100 + twoDigits
            if year > currentYear + 50 { year -= 100 }
            if year <= currentYear - 50 { year += 100 }
            return Self.timestamp(year: year, month: month + 1, day: day, seconds: time)
        }

        /// `SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time-of-day SP 4DIGIT`, the rest of an asctime-date.
        mutating func asctimeRest() -> Double? {
            guard literal(" "), let month = name(in: Self.months), literal(" ") else { return nil }
            let day = literal(" ") ? number(digits: 1) : number(digits: 2)
            guard let day, literal(" "), let time = timeOfDay(), literal(" "), let year = number(digits: 4),
                bytes.isEmpty
            else { return nil }
            return Self.timestamp(year: year, month: month + 1, day: day, seconds: time)
        }

        /// `2DIGIT ":" 2DIGIT ":" 2DIGIT` as seconds into the day; second 60 is a leap second.
        private mutating func timeOfDay() -> Int? {
            guard let hour = number(digits: 2), hour < 24, literal(":"), let minute = number(digits: 2), minute < 60,
                literal(":"), let second = number(digits: 2), second <= 60
            else { return nil }
            return hour * 3600 + minute * 60 + second
        }

        /// Consumes `text` if the bytes start with it, ignoring ASCII case.
        mutating func literal(_ text: String) -> Bool {
            let expected = text.utf8
            guard bytes.count >= expected.count, zip(bytes, expected).allSatisfy({ Self.lower($0) == Self.lower($1) })
            else { return false }
            bytes.removeFirst(expected.count)
            return true
        }

        /// Consumes the first of `names` the bytes start with, ignoring ASCII case, and returns its index.
        mutating func name(in names: [[UInt8]]) -> Int? {
            for (index, name) in names.enumerated()
            where bytes.count >= name.count && zip(bytes, name).allSatisfy({ Self.lower($0) == $1 }) {
                bytes.removeFirst(name.count)
                return index
            }
            return nil
        }

        /// Consumes exactly `digits` decimal digits.
        private mutating func number(digits: Int) -> Int? {
            guard bytes.count >= digits else { return nil }
            var value = 0
            for byte in bytes.prefix(digits) {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            bytes.removeFirst(digits)
            return value
        }

        private static func timestamp(year: Int, month: Int, day: Int, seconds: Int) -> Double? {
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            guard (1...12).contains(month), (1...lengths[month - 1]).contains(day) else { return nil }
            return Double(CivilDate.days(year: year, month: month, day: day) * 86_400 + Int64(seconds))
        }

        private static func lower(_ byte: UInt8) -> UInt8 {
            byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
        }

        private static func names(_ spaced: String) -> [[UInt8]] {
            spaced.split(separator: " ").map { Array($0.lowercased().utf8) }
        }
    }
}
