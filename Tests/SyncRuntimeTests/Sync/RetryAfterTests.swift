import Testing

@testable import SyncCore
@testable import SyncHTTP
@testable import SyncSupport

@Suite("Retry-After: delay-seconds and the three HTTP-date forms")
struct RetryAfterTests {
    /// Wed, 21 Oct 2015 07:28:00 GMT, the example of RFC 9110 §10.2.3.
    static let example = 1_445_412_480.0
    /// 100 seconds before the example.
    static let now = example - 100

    @Test(
        "delay-seconds is a count of seconds",
        arguments: [
            ("120", 120.0), ("0", 0), ("007", 7), (" 120 ", 120), ("\t5\t", 5),
            ("99999999999999999999999", 1e23),
        ]
    )
    func delaySeconds(header: String, expected: Double) {
        #expect(RetryAfter.seconds(header, now: Self.now) == expected)
    }

    @Test("a delay too large for a Double is the largest finite one")
    func hugeDelay() {
        #expect(RetryAfter.seconds(String(repeating: "9", count: 400), now: 0) == .greatestFiniteMagnitude)
    }

    @Test(
        "an HTTP-date in any of its three forms is the seconds until it",
        arguments: [
            "Wed, 21 Oct 2015 07:28:00 GMT",  // IMF-fixdate
            "Wednesday, 21-Oct-15 07:28:00 GMT",  // rfc850-date
            "Wed Oct 21 07:28:00 2015",  // asctime-date
            "wed, 21 OCT 2015 07:28:00 gmt",  // names in any case
            "  Wed, 21 Oct 2015 07:28:00 GMT\t",  // surrounding whitespace
            "Sun, 21 Oct 2015 07:28:00 GMT",  // a wrong weekday is not checked
        ]
    )
    func httpDate(header: String) {
        #expect(RetryAfter.seconds(header, now: Self.now) == 100)
    }

    @Test("a date in the past means no wait")
    func pastDate() {
        #expect(RetryAfter.seconds("Wed, 21 Oct 2015 07:28:00 GMT", now: Self.example + 3600) == 0)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: Self.now) == 0)
    }

    @Test(
        "every form gives the exact time",
        arguments: [
            ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0),
            ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777),
            ("Sun Nov  6 08:49:37 1994", 784_111_777),  // asctime pads a one-digit day with a space
            ("Mon Nov 16 08:49:37 2015", 1_447_663_777),
            ("Sun, 29 Feb 2004 00:00:00 GMT", 1_078_012_800),  // a leap day
            ("Sat, 31 Dec 2016 23:59:60 GMT", 1_483_228_800),  // a leap second
            ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
        ]
    )
    func exactTime(header: String, expected: Double) {
        #expect(HTTPDate.parse(Array(header.utf8)[...], now: Self.now) == expected)
    }

    @Test(
        "a two-digit rfc850 year more than 50 years ahead is the most recent past one",
        arguments: [
            ("Thursday, 01-Jan-65 00:00:00 GMT", 2_997_993_600.0),  // 2065: exactly 50 years ahead of 2015
            ("Saturday, 01-Jan-66 00:00:00 GMT", -126_230_400),  // 2066 would be 51: 1966
            ("Wednesday, 21-Oct-15 07:28:00 GMT", 1_445_412_480),
        ]
    )
    func twoDigitYear(header: String, expected: Double) {
        #expect(HTTPDate.parse(Array(header.utf8)[...], now: Self.now) == expected)
    }

    @Test(
        "anything else is not a Retry-After",
        arguments: [
            "", "   ", "-5", "+5", "1.5", "12a", "1 2", "soon", "١٢٠",
            "Wed, 21 Oct 2015 07:28:00",  // no zone
            "Wed, 21 Oct 2015 07:28:00 UTC",  // only GMT is allowed
            "Wed, 21 Oct 2015 07:28:00 +0000",
            "Wed, 21 Oct 2015 07:28:00 GMT extra",
            "Wed,21 Oct 2015 07:28:00 GMT",
            "Wed, 21 Oct 15 07:28:00 GMT",  // IMF-fixdate has a four-digit year
            "Wed, 1 Oct 2015 07:28:00 GMT",  // and a two-digit day
            "Wed, 21 Foo 2015 07:28:00 GMT",
            "Wed, 31 Feb 2015 07:28:00 GMT",
            "Sun, 29 Feb 2015 07:28:00 GMT",  // 2015 is not a leap year
            "Thu, 00 Oct 2015 07:28:00 GMT",
            "Wed, 21 Oct 2015 24:00:00 GMT",
            "Wed, 21 Oct 2015 07:60:00 GMT",
            "Wed, 21 Oct 2015 07:28:61 GMT",
            "Wed, 21 Oct 2015 7:28:00 GMT",
            "Wéd, 21 Oct 2015 07:28:00 GMT",
            "Xyz, 21 Oct 2015 07:28:00 GMT",
            "Wednesday, 21-Oct-2015 07:28:00 GMT",  // rfc850-date has a two-digit year
            "Wednesday, 21 Oct 2015 07:28:00 GMT",  // and dashes
            "Wed, 21-Oct-15 07:28:00 GMT",  // and a long weekday
            "Wed Oct 21 07:28:00 15",  // asctime-date has a four-digit year
            "Wed Oct 21 07:28:00 2015 GMT",  // and no zone
            "Sun Nov 6 08:49:37 1994",  // and pads a one-digit day with a space
            "Wednesday Oct 21 07:28:00 2015",
        ]
    )
    func garbage(header: String) {
        #expect(RetryAfter.seconds(header, now: Self.now) == nil)
    }
}
