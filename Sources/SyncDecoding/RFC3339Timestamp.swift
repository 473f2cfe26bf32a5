import SyncSupport

/// A point in time as a `timestamp` column stores it: RFC 3339 in UTC with exactly three fraction digits,
/// `2024-05-01T10:00:00.250Z` and `2024-05-01T10:00:00.000Z`, one width, so that text order is time order
/// (digits past the millisecond are dropped, rounding towards the past).
///
/// Built from an RFC 3339 string with any offset, a full date, or (leniently) Unix seconds or milliseconds.
/// Years stay within 0000…9999, the range the text form can hold. Calendar arithmetic is ``CivilDate``'s.
package struct RFC3339Timestamp: Hashable, Sendable {
    package var year: Int
    package var month: Int
    package var day: Int
    package var hour: Int
    package var minute: Int
    /// 0…60: a leap second keeps its 60.
    package var second: Int
    /// The fraction's digits, at most 9, no trailing zeros.
    package var fraction: [UInt8]

    /// Parses `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (`t` and `z` in either case; with
    /// `allowsSpace`, a space instead of the `T`), and shifts it to UTC.
    package init?(parsing text: UnsafeBufferPointer<UInt8>, allowsSpace: Bool) {
        var reader = DigitReader(text)
        guard let year = reader.digits(4), reader.skip(JSONByte.minus), let month = reader.digits(2),
            reader.skip(JSONByte.minus), let day = reader.digits(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(month, year: year) else { return nil }
        if reader.isAtEnd {
            self.init(year: year, month: month, day: day, hour: 0, minute: 0, second: 0, fraction: [])
            return
        }
        guard reader.skip(0x54) || reader.skip(0x74) || (allowsSpace && reader.skip(JSONByte.space)),  // T t
            let hour = reader.digits(2), hour < 24, reader.skip(JSONByte.colon),
            let minute = reader.digits(2), minute < 60, reader.skip(JSONByte.colon),
            let second = reader.digits(2), second <= 60
        else { return nil }
        var fraction: [UInt8] = []
        if reader.skip(JSONByte.period) {
            guard let digits = reader.fractionDigits() else { return nil }
            fraction = digits
        }
        var offsetMinutes = 0
        let isUTC = reader.skip(0x5A) || reader.skip(0x7A)  // Z z
        if !isUTC {
            guard let sign = reader.sign(), let offsetHour = reader.digits(2), offsetHour < 24,
                reader.skip(JSONByte.colon), let offsetMinute = reader.digits(2), offsetMinute < 60
            else { return nil }
            offsetMinutes = sign * (offsetHour * 60 + offsetMinute)
        }
        guard reader.isAtEnd else { return nil }
        if offsetMinutes == 0 {
            self.init(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: fraction)
            return
        }
        // Shift by whole minutes so that a leap second keeps its 60.
        let minutes =
            CivilDate.days(year: year, month: month, day: day) * 1440 + Int64(hour * 60 + minute - offsetMinutes)
        let (days, minuteOfDay) = minutes.floorDivided(by: 1440)
        let utc = CivilDate.fromDays(days)
        guard (0...9999).contains(utc.year) else { return nil }
        self.init(
            year: utc.year,
            month: utc.month,
            day: utc.day,
            hour: Int(minuteOfDay / 60),
            minute: Int(minuteOfDay % 60),
            second: second,
            fraction: fraction
        )
    }

    /// A count of nanoseconds since 1970-01-01T00:00:00Z.
    package init?(nanosecondsSinceEpoch nanoseconds: Int128) {
        let (seconds, nanosecond) = nanoseconds.floorDivided(by: 1_000_000_000)
        let (days, secondOfDay) = seconds.floorDivided(by: 86_400)
        // Far outside 0000…9999 either way; the bound keeps the conversion to Int64 safe.
        guard days > -1_000_000_000, days < 1_000_000_000 else { return nil }
        let date = CivilDate.fromDays(Int64(days))
        guard (0...9999).contains(date.year) else { return nil }
        var fraction: [UInt8] = []
        var remaining = Int(nanosecond)
        if remaining > 0 {
            var divisor = 100_000_000
            while remaining > 0 {
                fraction.append(JSONByte.zero + UInt8(remaining / divisor))
                remaining %= divisor
                divisor /= 10
            }
        }
        let second = Int(secondOfDay)
        self.init(
            year: date.year,
            month: date.month,
            day: date.day,
            hour: second / 3600,
            minute: second / 60 % 60,
            second: second % 60,
            fraction: fraction
        )
    }

    private init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: [UInt8]) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.fraction = fraction
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`: always 24 characters.
    package var text: String {
        String(unsafeUninitializedCapacity: 24) { output in
            var index = 0
            func put(_ value: Int, width: Int) {
                var divisor = 1
                for _ in 1..<width { divisor *= 10 }
                var rest = value
                for _ in 0..<width {
                    output[index] = JSONByte.zero + UInt8(truncatingIfNeeded: rest / divisor)
                    rest %= divisor
                    divisor /= 10
                    index += 1
                }
            }
            func put(byte: UInt8) {
                output[index] = byte
                index += 1
            }
            put(year, width: 4)
            put(byte: JSONByte.minus)
            put(month, width: 2)
            put(byte: JSONByte.minus)
            put(day, width: 2)
            put(byte: 0x54)  // T
            put(hour, width: 2)
            put(byte: JSONByte.colon)
            put(minute, width: 2)
            put(byte: JSONByte.colon)
            put(second, width: 2)
            put(byte: JSONByte.period)
            for position in 0..<3 { put(byte: position < fraction.count ? fraction[position] : JSONByte.zero) }
            put(byte: 0x5A)  // Z
            return index
        }
    }
}

/// Reads fixed-width fields from the bytes of a timestamp.
private struct DigitReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index >= bytes.count }

    mutating func digits(_ count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<count {
            let byte = bytes[index + offset]
            guard JSONByte.isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - JSONByte.zero)
        }
        index += count
        return value
    }

    mutating func skip(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func sign() -> Int? {
        if skip(JSONByte.plus) { return 1 }
        if skip(JSONByte.minus) { return -1 }
        return nil
    }

    /// One or more digits; the first nine kept, trailing zeros dropped.
    mutating func fractionDigits() -> [UInt8]? {
        let start = index
        while index < bytes.count, JSONByte.isDigit(bytes[index]) { index += 1 }
        guard index > start else { return nil }
        var kept = Array(bytes[start..<min(index, start + 9)])
        while kept.last == JSONByte.zero { kept.removeLast() }
        return kept
    }
}
