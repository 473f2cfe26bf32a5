/// What the paged shapes of `syncd infer`'s tests share: which records of a numbered collection a page holds, and
/// the page size a query asks for, bounded.
package enum InferPaging {
    /// The positions (from 0) of the records on the page starting at `start`, of `size` records, among `count`.
    static func positions(start: Int, size: Int, count: Int) -> Range<Int> {
        let first = min(max(start, 0), count)
        return first..<min(first + size, count)
    }

    /// The integer in a query parameter, within `range`; `fallback` when absent or not a number.
    static func number(_ text: String?, in range: ClosedRange<Int>, fallback: Int) -> Int {
        guard let value = text.flatMap({ Int($0) }) else { return fallback }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// A response of this JSON text.
    static func json(_ text: String) -> UpstreamResponse {
        .json(Array(text.utf8))
    }
}
