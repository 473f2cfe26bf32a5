/// Deterministic users shaped like jsonplaceholder's `/users`, in as many copies as a demo, a test or a benchmark needs.
///
/// Each user has `id`, `name`, `username`, `email`, `address` (`street`, `suite`, `city`, `zipcode`, and `geo` with
/// `lat` and `lng` as strings, as jsonplaceholder writes them), `phone`, `website` and `company` (`name`,
/// `catchPhrase`, `bs`). Values come from small word lists and a seeded generator, so the same arguments give the same
/// bytes on every run.
///
/// Generations model an upstream that changes between syncs (see `SampleRoster`): from generation 1 on, each
/// generation changes the email and phone of about 2% of the users, deletes one user and appends one new user.
///
/// ```swift
/// let before = SampleUsers.json(count: 300)
/// let after = SampleUsers.json(count: 300, generation: 1)  // a few updates, one deletion, one insertion
/// ```
package enum SampleUsers {
    /// Roughly what one pretty-printed user takes, to size the buffer once.
    private static let bytesPerUser = 600

    /// The pretty-printed JSON array of the users at `generation`.
    ///
    /// - Parameters:
    ///   - count: How many users generation 0 has; every later generation has as many. Negative counts as 0.
    ///   - generation: Which generation; negative counts as 0.
    ///   - stamp: When set, every user starts with `"stamp": N`: the crash and read benchmarks tell two bodies apart
    ///     by it, in every record.
    /// - Returns: UTF-8 JSON text, about 550 bytes per user.
    package static func json(count: Int, generation: Int = 0, stamp: Int? = nil) -> [UInt8] {
        let roster = SampleRoster(count: count, generation: generation)
        var json = JSONBytes(reservingCapacity: (roster.count + roster.generation) * bytesPerUser + 16)
        json.raw("[")
        var isFirst = true
        roster.forEachID { id in
            if !isFirst {
                json.raw(",")
            }
            isFirst = false
            json.newline(indent: 2)
            SampleUser(id: id, version: roster.version(of: id)).write(to: &json, indent: 2, stamp: stamp)
        }
        if !isFirst {
            json.newline(indent: 0)
        }
        json.raw("]")
        return json.bytes
    }

    /// A city that occurs in the data, for commands the demo suggests (`… where city = '<city>'`).
    ///
    /// - Parameter count: The `count` the data was made with.
    /// - Returns: The city most users of generation 0 live in (the first in word-list order on a tie); with no users,
    ///   the first city of the word list.
    package static func aCity(count: Int) -> String {
        var residents = [Int](repeating: 0, count: SampleWords.cities.count)
        for id in stride(from: 1, through: count, by: 1) {
            residents[SampleUser(id: id, version: 0).address.city] += 1
        }
        var busiest = 0
        for city in residents.indices where residents[city] > residents[busiest] {
            busiest = city
        }
        return SampleWords.cities[busiest]
    }
}
