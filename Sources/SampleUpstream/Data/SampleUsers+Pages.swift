extension SampleUsers {
    /// The users of generation 0 split into pages: page `n` (from 0) is the JSON array of users
    /// `n * pageSize + 1 … (n + 1) * pageSize`, written as ``json(count:generation:)`` writes them, so that the pages
    /// hold the same records, byte for byte, as the single body.
    ///
    /// - Parameters:
    ///   - count: How many users in all; negative counts as 0.
    ///   - pageSize: Users per page; less than 1 counts as 1. The last page may be short.
    /// - Returns: One UTF-8 JSON array per page; none when `count` is 0.
    package static func pages(count: Int, pageSize: Int) -> [[UInt8]] {
        let size = max(1, pageSize)
        return stride(from: 1, through: max(0, count), by: size).map { first in
            let last = min(count, first + size - 1)
            var json = JSONBytes(reservingCapacity: (last - first + 1) * 600 + 16)
            json.raw("[")
            for id in first...last {
                if id != first { json.raw(",") }
                json.newline(indent: 2)
                SampleUser(id: id, version: 0).write(to: &json, indent: 2)
            }
            json.newline(indent: 0)
            json.raw("]")
            return json.bytes
        }
    }
}
