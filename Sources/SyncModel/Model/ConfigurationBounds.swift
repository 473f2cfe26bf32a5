import SyncSupport

/// The values every numeric configuration key may take, in one place.
///
/// The parser refuses a value outside its range, naming the line, the key and the range
/// (`syncd.toml:7: [[endpoint]] "users": interval must be between 100ms and 30d`); the README's configuration
/// reference lists the same ranges. Within them no arithmetic the sync does on a configured number can overflow:
/// a timeout fits in 64-bit nanoseconds, a page number plus `max_pages` in an `Int`, a collected body in a
/// `ByteBuffer` (whose capacity is a `UInt32`).
package enum ConfigurationBounds {
    /// `interval`: at least 100 ms (a local `file://` or a test upstream may be polled that often), at most 30 days.
    package static let interval: ClosedRange<Duration> = .milliseconds(100) ... .seconds(30 * 86_400)
    /// `timeout`: the whole request, body included.
    package static let timeout: ClosedRange<Duration> = .milliseconds(100) ... .seconds(86_400)
    /// `retry_max_delay`: the scheduler honours a `Retry-After` of at most a day too; 10 ms keeps retries on a
    /// loopback upstream quick.
    package static let retryMaxDelay: ClosedRange<Duration> = .milliseconds(10) ... .seconds(86_400)
    /// `incremental.lag`.
    package static let incrementalLag: ClosedRange<Duration> = .zero ... .seconds(30 * 86_400)
    /// `max_body`, in bytes: a document is collected in one `ByteBuffer`, whose capacity is a `UInt32`.
    package static let maxBody: ClosedRange<Int> = 1...(2 << 30)
    /// `max_record`, in bytes: a record spanning chunks is gathered in memory whole.
    package static let maxRecord: ClosedRange<Int> = (1 << 10)...(1 << 30)
    /// `jitter`, a fraction of the interval.
    package static let jitter: ClosedRange<Double> = 0...1
    /// `[defaults] concurrency`.
    package static let concurrency: ClosedRange<Int> = 1...64
    /// `[defaults] stop_grace`: 0 cancels the syncs in flight at once; past an hour a service manager has long given up.
    package static let stopGrace: ClosedRange<Duration> = .zero ... .seconds(3600)
    /// `retries`.
    package static let retries: ClosedRange<Int> = 0...100
    /// `rate_limit`: the requests of one period (`N` in `"N/s"`).
    package static let rateLimitRequests: ClosedRange<Int> = 1...1_000_000
    /// `pagination.start`: the first page's number.
    package static let paginationStart: ClosedRange<Int> = 0...1_000_000_000
    /// `pagination.size` and `pagination.limit`: records per page.
    package static let pageSize: ClosedRange<Int> = 1...1_000_000
    /// `[server] max_rows`: records in one list or change-feed answer of the read API.
    package static let maxRows: ClosedRange<Int> = 1...100_000
    /// `[server] max_connections`: read API connections open at once.
    package static let maxConnections: ClosedRange<Int> = 1...65_536
    /// `[server] max_streams`: change-feed event streams and long polls open at once (0 turns them off).
    package static let maxStreams: ClosedRange<Int> = 0...65_536
    /// `[cluster] lease`: renewed every third of it, so at least 2 s leaves a renewal room for a slow database.
    package static let lease: ClosedRange<Duration> = .seconds(2) ... .seconds(3600)
    /// `pagination.max_pages`.
    package static let maxPages: ClosedRange<Int> = 1...1_000_000
    /// The longest URL a `{parent.NAME}` template may make, in bytes: 8 KiB, the request line most servers take
    /// (nginx's `large_client_header_buffers`, Apache's `LimitRequestLine`).
    package static let renderedURLBytes = 8 << 10
    /// The longest header value a `{parent.NAME}` template may make, in bytes: 8 KiB, a header line most servers take.
    package static let renderedHeaderBytes = 8 << 10
    /// The parents one run of a child endpoint walks (`max_parents`).
    package static let maxParents: ClosedRange<Int> = 1...1_000_000
    /// The parents a child endpoint walks at once (`parent_concurrency`).
    package static let parentConcurrency: ClosedRange<Int> = 1...64

    /// `between 100ms and 30d`, in the configuration's own units.
    package static func describe(_ range: ClosedRange<Duration>) -> String {
        "between \(DurationText.format(range.lowerBound)) and \(DurationText.format(range.upperBound))"
    }

    /// `between 1B and 2GiB`, in the configuration's own units.
    package static func describe(bytes range: ClosedRange<Int>) -> String {
        "between \(sizeText(range.lowerBound)) and \(sizeText(range.upperBound))"
    }

    /// `from 0 to 100`.
    package static func describe(_ range: ClosedRange<Int>) -> String {
        "from \(range.lowerBound) to \(range.upperBound)"
    }

    /// A size as the configuration writes it: the largest binary unit that divides it (`2GiB`, `1536KiB`, `100B`).
    static func sizeText(_ bytes: Int) -> String {
        for (unit, shift) in [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)] {
            let size = 1 << shift
            if bytes >= size, bytes % size == 0 { return "\(bytes / size)\(unit)" }
        }
        return "\(bytes)B"
    }
}
