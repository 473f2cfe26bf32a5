extension DemoUpstream {
    /// The users of one generation in the order `/users` lists them, cut into pages on request.
    ///
    /// A page is written as ``SampleUsers/json(count:generation:stamp:)`` writes the whole array, so a collection
    /// that fits one page is served byte for byte as that body, and the pages of a larger one hold the same records.
    struct Listing: Sendable {
        let generation: Int
        private let roster: SampleRoster
        /// The ids present at `generation`, in order.
        private let ids: [Int]

        init(count: Int, generation: Int) {
            self.generation = generation
            roster = SampleRoster(count: count, generation: generation)
            var ids: [Int] = []
            ids.reserveCapacity(roster.count + roster.generation)
            roster.forEachID { ids.append($0) }
            self.ids = ids
        }

        /// How many pages of `size` users hold the listing: at least one, which may be empty.
        func pageCount(size: Int) -> Int {
            max(1, (ids.count + size - 1) / size)
        }

        /// The JSON array of page `number` (from 1) of `size` users; an empty array past the last page.
        func page(_ number: Int, size: Int) -> [UInt8] {
            let (start, overflow) = (number - 1).multipliedReportingOverflow(by: size)
            let first = overflow ? ids.count : min(start, ids.count)
            let last = min(first + size, ids.count)
            var json = JSONBytes(reservingCapacity: (last - first) * 600 + 16)
            json.raw("[")
            for index in first..<last {
                if index != first {
                    json.raw(",")
                }
                json.newline(indent: 2)
                SampleUser(id: ids[index], version: roster.version(of: ids[index])).write(to: &json, indent: 2)
            }
            if last > first {
                json.newline(indent: 0)
            }
            json.raw("]")
            return json.bytes
        }
    }

    /// The `Link` field of page `number` of `count` pages, with targets relative to the origin (RFC 8288 §3.1): `next`
    /// and `last` while pages follow, `prev` and `first` after the first page; nil when everything fits one page.
    static func link(page number: Int, of count: Int) -> String? {
        guard count > 1 else { return nil }
        var links: [String] = []
        if number > 1 {
            links.append(#"</users?page=\#(min(number - 1, count))>; rel="prev""#)
        }
        if number < count {
            links.append(#"</users?page=\#(number + 1)>; rel="next""#)
            links.append(#"</users?page=\#(count)>; rel="last""#)
        }
        if number > 1 {
            links.append(#"</users?page=1>; rel="first""#)
        }
        return links.joined(separator: ", ")
    }
}
