import SyncDecoding
import SyncHTTP
import SyncModel
import SyncSupport

/// The value an incremental endpoint sends as its cursor parameter: the highest stored value of its cursor column
/// (less the lag, for a timestamp), or the configured initial value before any row.
enum IncrementalCursor {
    /// - Parameters:
    ///   - configuration: the endpoint's `incremental` table.
    ///   - column: the cursor column.
    ///   - stored: the cursor stored with the rows.
    ///   - storedColumn: the column the stored cursor was read from; another column's cursor is not used.
    /// - Returns: nil when there is nothing to send: no stored cursor and no initial value.
    static func value(
        _ configuration: IncrementalConfiguration, column: ColumnSpec, stored: String?, storedColumn: String?
    ) -> String? {
        guard let stored, storedColumn == column.name else { return configuration.initial }
        guard let lag = configuration.lag, column.type == .timestamp else { return stored }
        return subtracting(lag, from: stored) ?? stored
    }

    /// `url` with the cursor an incremental `endpoint` sends set as its parameter: the endpoint's own cursor, or for
    /// a child endpoint one parent's (set after its `{parent.…}` values are rendered); `url` as it is when the
    /// endpoint is not incremental or has nothing to send.
    static func url(_ url: String, of endpoint: EndpointConfiguration, stored: String?, storedColumn: String?) -> String
    {
        guard let incremental = endpoint.incremental,
            let cursor = value(
                incremental, column: endpoint.columns[incremental.column], stored: stored, storedColumn: storedColumn)
        else { return url }
        return PageURL.setting([(name: incremental.param, value: cursor)], in: url)
    }

    /// A stored timestamp (RFC 3339, UTC) moved back by `lag`; nil when it is not one or leaves 0000…9999.
    static func subtracting(_ lag: Duration, from timestamp: String) -> String? {
        let parsed = Array(timestamp.utf8).withUnsafeBufferPointer { RFC3339Timestamp(parsing: $0, allowsSpace: false) }
        guard let parsed else { return nil }
        let days = Int128(CivilDate.days(year: parsed.year, month: parsed.month, day: parsed.day))
        let seconds = days * 86_400 + Int128(parsed.hour * 3600 + parsed.minute * 60 + parsed.second)
        var nanoseconds = seconds * 1_000_000_000
        var scale: Int128 = 100_000_000
        for digit in parsed.fraction {
            nanoseconds += Int128(digit - JSONByte.zero) * scale
            scale /= 10
        }
        let (lagSeconds, lagAttoseconds) = lag.components
        nanoseconds -= Int128(lagSeconds) * 1_000_000_000 + Int128(lagAttoseconds / 1_000_000_000)
        return RFC3339Timestamp(nanosecondsSinceEpoch: nanoseconds)?.text
    }
}
