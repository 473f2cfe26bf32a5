/// The query parameters the paged shapes read: a page size and where a page starts.
extension UpstreamRequest {
    /// The query parameter `name` as a whole number brought into `range`, or `fallback` when it is absent or not a
    /// whole number: a page size, as APIs take one.
    package func pageSize(_ name: String, default fallback: Int, in range: ClosedRange<Int>) -> Int {
        Int(query[name] ?? "").map { min(max($0, range.lowerBound), range.upperBound) } ?? fallback
    }

    /// The query parameter `name` as a whole number from `first` (`first` when absent); nil when it is not one, or
    /// below `first`: where a page starts.
    package func start(_ name: String, from first: Int = 0) -> Int? {
        guard let text = query[name] else { return first }
        guard let value = Int(text), value >= first else { return nil }
        return value
    }
}
