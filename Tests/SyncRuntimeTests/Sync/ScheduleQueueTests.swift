import Testing

@testable import SyncCore
@testable import SyncRuntime
@testable import SyncSupport

@Suite("schedule: the queue of waiting endpoints")
struct ScheduleQueueTests {
    typealias Item = ScheduleQueue.Item

    static func precedes(_ left: Item, _ right: Item) -> Bool {
        (left.due, left.id) < (right.due, right.id)
    }

    @Test("built at once, it gives items earliest first, ties by id", arguments: [0, 1, 2, 3, 10, 257])
    func heapify(count: Int) {
        var random = ScheduleRandom(seed: UInt64(count))
        // Few distinct times, so that ties are common.
        let items = (0..<count).map { Item(due: Double(Int.random(in: 0..<5, using: &random)), id: $0) }.shuffled(
            using: &random
        )
        var queue = ScheduleQueue(items)
        #expect(queue.count == count)
        var popped: [Item] = []
        while let item = queue.removeFirst() { popped.append(item) }
        #expect(popped == items.sorted(by: Self.precedes))
        #expect(queue.isEmpty)
        #expect(queue.first == nil)
    }

    @Test("insertions and removals interleaved keep the order")
    func interleaved() {
        var random = ScheduleRandom(seed: 5)
        var queue = ScheduleQueue()
        var reference: [Item] = []
        for step in 0..<5000 {
            if Bool.random(using: &random) || reference.isEmpty {
                let item = Item(due: Double(Int.random(in: 0..<50, using: &random)), id: step)
                queue.insert(item)
                reference.append(item)
            } else {
                reference.sort(by: Self.precedes)
                #expect(queue.first == reference.first)
                #expect(queue.removeFirst() == reference.removeFirst())
            }
            #expect(queue.count == reference.count)
        }
    }
}
