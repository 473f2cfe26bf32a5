import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSupport

@Suite("Converting timestamps to RFC 3339 in UTC")
struct TimestampConversionTests {
    static let accepted: [(String, String)] = [
        ("2024-05-01T12:00:00Z", "2024-05-01T12:00:00.000Z"),
        ("2024-05-01T12:00:00+02:00", "2024-05-01T10:00:00.000Z"),
        ("2024-05-01T12:00:00-05:30", "2024-05-01T17:30:00.000Z"),
        ("2024-05-01t12:00:00z", "2024-05-01T12:00:00.000Z"),
        ("2024-05-01T12:00:00-00:00", "2024-05-01T12:00:00.000Z"),
        ("2024-05-01T00:30:00+01:00", "2024-04-30T23:30:00.000Z"),
        ("2024-03-01T00:00:00+00:01", "2024-02-29T23:59:00.000Z"),
        ("2023-03-01T00:00:00+00:01", "2023-02-28T23:59:00.000Z"),
        ("2024-12-31T23:00:00-01:00", "2025-01-01T00:00:00.000Z"),
        ("2024-05-01T12:00:00.250Z", "2024-05-01T12:00:00.250Z"),
        ("2024-05-01T12:00:00.000Z", "2024-05-01T12:00:00.000Z"),
        ("2024-05-01T12:00:00.123456789123Z", "2024-05-01T12:00:00.123Z"),
        ("2024-05-01T12:00:00.1+02:00", "2024-05-01T10:00:00.100Z"),
        ("2016-12-31T23:59:60Z", "2016-12-31T23:59:60.000Z"),
        ("2017-01-01T00:59:60+01:00", "2016-12-31T23:59:60.000Z"),
        ("2024-05-01", "2024-05-01T00:00:00.000Z"),
        ("2000-02-29", "2000-02-29T00:00:00.000Z"),
        ("0000-01-01T00:00:00Z", "0000-01-01T00:00:00.000Z"),
        ("9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"),
        ("1969-12-31T23:59:59-23:59", "1970-01-01T23:58:59.000Z"),
    ]

    static let refused = [
        "2024-13-01", "2024-00-10", "2024-02-30", "2023-02-29", "1900-02-29", "2024-04-31", "2024-05-00",
        "2024-05-01T24:00:00Z", "2024-05-01T12:60:00Z", "2024-05-01T12:00:61Z", "2024-05-01T12:00:00",
        "2024-05-01T12:00Z", "2024-5-01", "24-05-01", "2024-05-01T12:00:00.Z", "2024-05-01T12:00:00+2:00",
        "2024-05-01T12:00:00+24:00", "2024-05-01T12:00:00+02:60", "2024-05-01T12:00:00+0200",
        "2024-05-01T12:00:00Z ", " 2024-05-01", "2024-05-01T", "", "yesterday", "２０２４-05-01",
        "0000-01-01T00:00:00+00:01", "9999-12-31T23:59:00-00:01", "2024-05-01X12:00:00Z",
    ]

    @Test("RFC 3339 strings and dates become UTC, leniently and strictly", arguments: accepted)
    func acceptedStrings(_ input: String, _ expected: String) throws {
        for strict in [false, true] {
            let (value, problems) = try convertValue("\"\(input)\"", to: .timestamp, strict: strict)
            #expect(value == .text(expected))
            #expect(problems.isEmpty)
        }
    }

    @Test("invalid dates, times and offsets are mistyped", arguments: refused)
    func refusedStrings(_ input: String) throws {
        let (value, problems) = try convertValue("\"\(input)\"", to: .timestamp)
        #expect(value == .null)
        #expect(problems.map(\.found) == ["string \"\(input)\""])
        #expect(problems.map(\.expected) == ["timestamp"])
    }

    @Test("a space instead of the T is accepted only leniently")
    func spaceSeparator() throws {
        #expect(
            try convertValue(#""2024-05-01 12:00:00+02:00""#, to: .timestamp).0 == .text("2024-05-01T10:00:00.000Z"))
        #expect(try convertValue(#""2024-05-01 12:00:00+02:00""#, to: .timestamp, strict: true).0 == .null)
    }

    static let unixTimes: [(String, String?)] = [
        ("0", "1970-01-01T00:00:00.000Z"),
        ("1714564800", "2024-05-01T12:00:00.000Z"),
        ("1714564800.25", "2024-05-01T12:00:00.250Z"),
        ("1.7145648e9", "2024-05-01T12:00:00.000Z"),
        ("1714564800250", "2024-05-01T12:00:00.250Z"),
        ("1714564800000", "2024-05-01T12:00:00.000Z"),
        ("-1", "1969-12-31T23:59:59.000Z"),
        ("-0.5", "1969-12-31T23:59:59.500Z"),
        ("99999999999", "5138-11-16T09:46:39.000Z"),
        ("100000000000", "1973-03-03T09:46:40.000Z"),
        ("1e11", "1973-03-03T09:46:40.000Z"),
        ("1714564800.123456789999", "2024-05-01T12:00:00.123Z"),
        ("1e30", nil),
        ("-1e15", nil),
    ]

    @Test("a number is Unix seconds, or milliseconds from 10^11 on, only leniently", arguments: unixTimes)
    func unixTime(_ literal: String, _ expected: String?) throws {
        #expect(try convertValue(literal, to: .timestamp).0 == (expected.map { .text($0) } ?? .null))
        #expect(try convertValue(literal, to: .timestamp, strict: true).0 == .null)
    }

    @Test("booleans, objects and arrays are not timestamps", arguments: ["true", "{}", "[]"])
    func otherKinds(_ literal: String) throws {
        #expect(try convertValue(literal, to: .timestamp).1.map(\.action) == [.nulled])
    }

    @Test("the calendar used for offsets agrees with the day-of-month rule over four centuries")
    func calendar() {
        #expect(CivilDate.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilDate.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilDate.days(year: 0, month: 1, day: 1) == -719_528)
        var wrong: [Int64] = []
        var expected = (year: 1900, month: 1, day: 1)
        for day in CivilDate.days(year: 1900, month: 1, day: 1)...CivilDate.days(year: 2300, month: 1, day: 1) {
            let date = CivilDate.fromDays(day)
            if date != expected || CivilDate.days(year: date.year, month: date.month, day: date.day) != day {
                wrong.append(day)
            }
            expected.day += 1
            if expected.day > CivilDate.daysInMonth(expected.month, year: expected.year) {
                expected.day = 1
                expected.month += 1
                if expected.month > 12 {
                    expected.month = 1
                    expected.year += 1
                }
            }
        }
        #expect(wrong.isEmpty)
        #expect(CivilDate.daysInMonth(2, year: 2000) == 29)
        #expect(CivilDate.daysInMonth(2, year: 1900) == 28)
        #expect(CivilDate.daysInMonth(2, year: 2024) == 29)
        #expect(CivilDate.daysInMonth(2, year: 2023) == 28)
    }
}
