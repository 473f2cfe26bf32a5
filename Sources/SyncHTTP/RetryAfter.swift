import SyncSupport

/// The `Retry-After` header of a 429 or a 503 (RFC 9110 §10.2.3), as seconds to wait.
///
/// ## Topics
///
/// - ``seconds(_:now:)``
package enum RetryAfter {
    /// Parses a `Retry-After` value into seconds from `now`.
    ///
    /// The value is either delay-seconds (`120`) or an HTTP-date: the IMF-fixdate
    /// `Wed, 21 Oct 2015 07:28:00 GMT`, or one of the two obsolete forms RFC 9110 §5.6.7 requires recipients to
    /// accept, rfc850-date `Wednesday, 21-Oct-15 07:28:00 GMT` and asctime-date `Wed Oct 21 07:28:00 2015`.
    ///
    /// ```swift
    /// RetryAfter.seconds("120", now: now)                              // 120
    /// RetryAfter.seconds("Wed, 21 Oct 2015 07:28:00 GMT", now: now)    // that time minus now, or 0 if past
    /// RetryAfter.seconds("soon", now: now)                             // nil
    /// ```
    ///
    /// Leading and trailing spaces and tabs are ignored, and day and month names and `GMT` match in any case; the
    /// rest follows the grammar exactly. The weekday must be a weekday name but is not checked against the date. A
    /// two-digit rfc850 year is the one with those digits within 50 years of `now`, as §5.6.7 asks.
    ///
    /// - Parameters:
    ///   - header: The header's value.
    ///   - now: The current time, in seconds since 1970.
    /// - Returns: The seconds to wait, at least 0 (a date in the past gives 0); `nil` when the value is neither
    ///   form. A delay too large for a `Double` gives `Double.greatestFiniteMagnitude`.
    package static func seconds(_ header: String, now: Double) -> Double? {
        let bytes = Array(header.utf8)[...].trimmingASCIISpaces
        guard let firstByte = bytes.first else { return nil }
        if ASCIIDigits.isDigit(firstByte) {
            // Only digits, so Double's parser sees no sign, exponent or "inf": just its correct rounding.
            guard bytes.allSatisfy(ASCIIDigits.isDigit), let seconds = Double(String(decoding: bytes, as: UTF8.self))
            else {
                return nil
            }
            return min(seconds, .greatestFiniteMagnitude)
        }
        guard let date = HTTPDate.parse(bytes, now: now) else { return nil }
        return max(0, date - now)
    }
}
