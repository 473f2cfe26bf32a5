/// The endpoints waiting for their next run, earliest due first and, at equal times, lowest id first: a binary
/// min-heap, so that taking the next endpoint and putting one back each cost O(log n), and building it O(n).
///
/// Ids are the endpoints' ranks by name, so "lowest id first" is "ties by name".
struct ScheduleQueue {
    struct Item: Equatable {
        var due: Double
        var id: Int
    }

    private var items: [Item]

    /// A queue holding `items`, in O(n).
    init(_ items: [Item] = []) {
        self.items = items
        var index = items.count / 2
        while index > 0 {
            index -= 1
            siftDown(from: index)
        }
    }

    var count: Int { items.count }

    var isEmpty: Bool { items.isEmpty }

    /// The earliest item, without removing it.
    var first: Item? { items.first }

    mutating func insert(_ item: Item) {
        items.append(item)
        siftUp(from: items.count - 1)
    }

    /// Removes and returns the earliest item.
    mutating func removeFirst() -> Item? {
        guard let last = items.popLast() else { return nil }
        guard let first = items.first else { return last }
        items[0] = last
        siftDown(from: 0)
        return first
    }

    private static func precedes(_ left: Item, _ right: Item) -> Bool {
        left.due < right.due || (left.due == right.due && left.id < right.id)
    }

    private mutating func siftUp(from start: Int) {
        var child = start
        let item = items[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(item, items[parent]) else { break }
            items[child] = items[parent]
            child = parent
        }
        items[child] = item
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        let item = items[parent]
        let count = items.count
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count, Self.precedes(items[child + 1], items[child]) {
                child += 1
            }
            guard Self.precedes(items[child], item) else { break }
            items[parent] = items[child]
            parent = child
        }
        items[parent] = item
    }
}
