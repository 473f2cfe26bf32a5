extension SampleUsers {
    /// The users of generation 0 after a given churn, for benchmarks: every `changedEvery`-th user changed
    /// (a new email and phone), every `deletedEvery`-th user (offset by half a step) gone, and `added` new users appended.
    ///
    /// `json(count: 100_000, changedEvery: 20, deletedEvery: 100, added: 1_000)` is 5% changed, 1% deleted, 1% added.
    package static func json(count: Int, changedEvery: Int, deletedEvery: Int, added: Int) -> [UInt8] {
        var json = JSONBytes(reservingCapacity: (count + added) * 600 + 16)
        json.raw("[")
        var isFirst = true
        func write(_ user: SampleUser) {
            if !isFirst { json.raw(",") }
            isFirst = false
            json.newline(indent: 2)
            user.write(to: &json, indent: 2)
        }
        for id in stride(from: 1, through: count, by: 1) {
            if deletedEvery > 0, (id + deletedEvery / 2) % deletedEvery == 0 { continue }
            let changed = changedEvery > 0 && id % changedEvery == 0
            write(SampleUser(id: id, version: changed ? 1 : 0))
        }
        for id in stride(from: count + 1, through: count + added, by: 1) {
            write(SampleUser(id: id, version: 0))
        }
        if !isFirst { json.newline(indent: 0) }
        json.raw("]")
        return json.bytes
    }
}
