import SyncCore
import SyncSupport

/// Which users exist at a generation, and how often each was changed: the history behind ``SampleUsers``.
///
/// Generation 0 holds ids `1...count`. Each generation `k >= 1`
/// - changes `max(1, count / 50)` of the original users (about 2%) that are still there, drawn from a generator seeded
///   with `k`, which gives them a new email address and phone number;
/// - deletes one original user, walking the ids with a stride coprime to `count` so no id is deleted twice;
/// - adds the user `count + k` at the end.
///
/// So every generation after 0 still holds `count` users (until every original user has been deleted, after which
/// generations only add).
struct SampleRoster {
    let count: Int
    let generation: Int
    /// Original ids deleted by generation `k` are `deletedIDs[k - 1]`.
    let deletedIDs: [Int]
    /// How many generations changed each id; ids never changed are absent.
    let versions: [Int: Int]

    init(count: Int, generation: Int) {
        self.count = max(0, count)
        self.generation = max(0, generation)
        deletedIDs = Self.deletions(count: self.count, generations: self.generation)
        versions = Self.changes(count: self.count, generations: self.generation, deletedIDs: deletedIDs)
    }

    /// Calls `body` with each id present, in the order the JSON array lists them.
    func forEachID(_ body: (Int) -> Void) {
        let deleted = Set(deletedIDs)
        for id in Swift.stride(from: 1, through: count, by: 1) where !deleted.contains(id) {
            body(id)
        }
        for id in Swift.stride(from: count + 1, through: count + generation, by: 1) {
            body(id)
        }
    }

    func version(of id: Int) -> Int {
        versions[id] ?? 0
    }

    /// The original id deleted by generation `k`, for `k` in `1...count`.
    static func deletedID(generation k: Int, count: Int) -> Int {
        let stride = deletionStride(count: count)
        return (count / 2 + (k - 1) * stride) % count + 1
    }

    private static func deletionStride(count: Int) -> Int {
        var stride = max(1, count * 2 / 5)
        while greatestCommonDivisor(stride, count) != 1 {
            stride += 1
        }
        return stride
    }

    private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 {
            (a, b) = (b, a % b)
        }
        return a
    }

    private static func deletions(count: Int, generations: Int) -> [Int] {
        guard count > 0 else { return [] }
        return (0..<min(generations, count)).map { deletedID(generation: $0 + 1, count: count) }
    }

    private static func changes(count: Int, generations: Int, deletedIDs: [Int]) -> [Int: Int] {
        guard count > 0, generations > 0 else { return [:] }
        let perGeneration = max(1, count / 50)
        var versions: [Int: Int] = [:]
        var deleted = Set<Int>()
        for k in 1...generations {
            if k <= deletedIDs.count {
                deleted.insert(deletedIDs[k - 1])
            }
            var random = SplitMix64(key: k, stream: 0xC4A9_6E)
            var chosen = Set<Int>()
            var attempts = 0
            while chosen.count < perGeneration && attempts < perGeneration * 20 {
                attempts += 1
                let id = random.below(count) + 1
                if !deleted.contains(id) && chosen.insert(id).inserted {
                    versions[id, default: 0] += 1
                }
            }
        }
        return versions
    }
}
