import SyncSupport

/// A running sync's progress in words, as `syncd sync` redraws it on a terminal, and the status page shows it.
extension SyncProgress {
    /// The progress at `now` in one line for people, without the endpoint's name: the parents done (of their total),
    /// the pages (of the announced last), the records (of the announced total) when they are counted, the bytes, the
    /// rate (records a second when they are counted, else bytes once some arrived) and the time left when a total is
    /// known.
    ///
    /// ```swift
    /// progress.summary(at: now)   // "12 of 40 pages, 1180 records, 2.3 MiB, 95 records/s, about 30s left"
    /// ```
    ///
    /// - Parameter now: The time, in seconds since 1970.
    public func summary(at now: Double) -> String {
        var parts: [String] = []
        if let parentsDone {
            parts.append(parentsTotal.map { "\(parentsDone) of \($0) parents" } ?? Self.counted(parentsDone, "parent"))
        }
        parts.append(totalPages.map { "\(pages) of \($0) pages" } ?? Self.counted(pages, "page"))
        if let records {
            parts.append(totalRecords.map { "\(records) of \($0) records" } ?? Self.counted(records, "record"))
        }
        parts.append(ByteCount.format(bytes))
        if let rate = recordsPerSecond(at: now).flatMap(Self.whole) {
            parts.append("\(rate) records/s")
        } else if bytes > 0, let rate = bytesPerSecond(at: now).flatMap(Self.whole) {
            parts.append("\(ByteCount.format(rate))/s")
        }
        if let left = secondsLeft(at: now).flatMap(Self.whole) {
            parts.append("about \(DurationText.format(.seconds(max(1, left)))) left")
        }
        return parts.joined(separator: ", ")
    }

    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// A rate or a time as a whole number, when it is one a line can show (finite, not negative, and short of a
    /// million years in seconds).
    private static func whole(_ value: Double) -> Int? {
        guard value.isFinite, value >= 0, value < 3e13 else { return nil }
        return Int(value.rounded())
    }
}
