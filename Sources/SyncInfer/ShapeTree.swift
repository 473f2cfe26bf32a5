import SyncCore

/// What the records held at one path, counted over all of them: the kinds of value seen, how often, and
/// whether the values could serve as a key.
struct ShapeNode {
    /// The unescaped key that leads here from the parent object; empty for the records and for array elements.
    var key: [UInt8]
    /// The key as text.
    var name: String
    /// The number of keys between the record and here (the record is 0; an array's elements count as their array).
    var depth: Int
    /// Children for object keys, in the order they were first seen.
    var children: [Int] = []
    /// The node that gathers every element of the arrays seen here.
    var element: Int?

    /// How many times a value was here, null included.
    var present = 0
    var nulls = 0
    var integers = 0
    var reals = 0
    var booleans = 0
    var strings = 0
    var objects = 0
    var arrays = 0
    /// Whether every string seen here reads as an RFC 3339 timestamp or a date.
    var allTimestamps = true
    /// Whether objects or arrays here were too deep to look into.
    var wasCutOff = false
    /// Hashes of the values seen here while they are all distinct scalars; nil when not tracked or not unique.
    var seenValues: Set<Int>?
    /// Whether this node lies inside an array of the record, where one record may hold many values.
    var isInArray = false
    /// Hashes of the scalars seen here when the key reads as a reference to other records (`status_id`,
    /// `sample_account_ids`); nil when not collected.
    var referenceValues: Set<Int>?

    init(key: [UInt8], depth: Int, tracksUniqueness: Bool) {
        self.key = key
        self.name = String(decoding: key, as: UTF8.self)
        self.depth = depth
        self.seenValues = tracksUniqueness ? [] : nil
    }

    /// The number of non-null values.
    var nonNull: Int { present - nulls }

    /// How many kinds of non-null value were seen, integers and reals counting as one (numbers).
    var kindCount: Int {
        [integers + reals, booleans, strings, objects, arrays].count { $0 > 0 }
    }

    /// Whether every value here was a distinct scalar (tracked only for key candidates).
    var isUnique: Bool { seenValues != nil && objects == 0 && arrays == 0 }
}

/// The shapes of a set of records: a tree of ``ShapeNode`` kept in one array, the records at index 0.
struct ShapeTree {
    /// Nodes nested deeper than this below the record are not looked into.
    static let maximumDepth = 8
    /// Keys directly in the record whose values are checked for uniqueness, besides key-like names.
    static let uniquenessCandidates = 8
    /// At most this many reference values are kept over all nodes; past it, the rest are not collected.
    static let maximumReferences = 100_000

    var nodes: [ShapeNode] = [ShapeNode(key: [], depth: 0, tracksUniqueness: false)]
    /// The number of records walked.
    var recordCount = 0
    /// Whether to collect the values of reference-like keys, to tell side-loaded arrays (see ``RecordsChoice``).
    let collectsReferences: Bool
    /// The number of values held by every node's ``ShapeNode/referenceValues``.
    var referenceCount = 0
    /// Keys compared or looked up while finding children: at most ``scannedChildren`` + 1 per key walked.
    private(set) var keyComparisons = 0
    /// The children of parents with more than ``scannedChildren`` children, by key.
    private var childIndex: [ChildKey: Int] = [:]

    /// A child's place in ``childIndex``.
    private struct ChildKey: Hashable {
        var parent: Int
        var key: [UInt8]
    }

    /// Parents with at most this many children have them compared one by one; larger ones are looked up by key.
    static let scannedChildren = 16

    init(collectsReferences: Bool = false) {
        self.collectsReferences = collectsReferences
    }

    /// The child of `parent` for a key, created when first seen.
    ///
    /// Uniqueness is tracked for the record's first keys and its key-like keys, and for key-like keys of nested
    /// objects that could become columns (a nested key such as `repo.id`), never inside arrays.
    ///
    /// A key's child is looked up at the hint (the key's position in the last object), then, while the parent has at
    /// most ``scannedChildren`` children, by comparing each; past that, in ``childIndex``. So each key costs at most
    /// ``scannedChildren`` + 1 comparisons, and an object with tens of thousands of distinct keys stays linear.
    mutating func child(of parent: Int, key: UnsafeBufferPointer<UInt8>, hint: Int) -> Int {
        let childCount = nodes[parent].children.count
        if hint < childCount {
            keyComparisons += 1
            let child = nodes[parent].children[hint]
            if nodes[child].key.elementsEqual(key) { return child }
        }
        let keyBytes: [UInt8]
        if childCount <= Self.scannedChildren {
            keyComparisons += childCount
            for child in nodes[parent].children where nodes[child].key.elementsEqual(key) { return child }
            keyBytes = Array(key)
        } else {
            keyComparisons += 1
            keyBytes = Array(key)
            if let child = childIndex[ChildKey(parent: parent, key: keyBytes)] { return child }
        }
        let depth = nodes[parent].depth + 1
        let isKeyLike = Self.isKeyLike(keyBytes)
        let isInArray = nodes[parent].isInArray
        let tracks =
            !isInArray
            && (parent == 0
                ? childCount < Self.uniquenessCandidates || isKeyLike
                : isKeyLike && depth <= ColumnInference.maximumPathLength)
        var node = ShapeNode(key: keyBytes, depth: depth, tracksUniqueness: tracks)
        node.isInArray = isInArray
        let isOwnID = parent == 0 && node.name.lowercased() == "id"
        if collectsReferences, !isOwnID, isKeyLike || Self.isReferenceList(keyBytes) { node.referenceValues = [] }
        let index = nodes.count
        nodes.append(node)
        nodes[parent].children.append(index)
        if childCount == Self.scannedChildren {
            for child in nodes[parent].children { childIndex[ChildKey(parent: parent, key: nodes[child].key)] = child }
        } else if childCount > Self.scannedChildren {
            childIndex[ChildKey(parent: parent, key: keyBytes)] = index
        }
        return index
    }

    /// The node that gathers the elements of the arrays at `parent`, created when first needed.
    mutating func element(of parent: Int) -> Int {
        if let element = nodes[parent].element { return element }
        var node = ShapeNode(key: [], depth: nodes[parent].depth, tracksUniqueness: false)
        node.isInArray = true
        node.referenceValues = nodes[parent].referenceValues == nil ? nil : []
        nodes.append(node)
        nodes[parent].element = nodes.count - 1
        return nodes.count - 1
    }

    /// Notes a scalar's hash at a node that collects references, while the total stays within bounds.
    mutating func noteReference(node: Int, hash: Int) {
        guard referenceCount < Self.maximumReferences, nodes[node].referenceValues?.insert(hash).inserted == true
        else { return }
        referenceCount += 1
    }

    /// The hashes of every reference in the records, except those at `excluded` (the records' own key).
    func references(excluding excluded: Int?) -> Set<Int> {
        var all: Set<Int> = []
        for index in nodes.indices where index != excluded {
            if let values = nodes[index].referenceValues { all.formUnion(values) }
        }
        return all
    }

    /// Whether a key reads like an identifier: `id`, `…_id`, `…Id`, `…uuid`, `…key`, `sku`, `slug`, `guid`, `code`,
    /// `doi` (Crossref's works).
    static func isKeyLike(_ key: [UInt8]) -> Bool {
        let text = String(decoding: key, as: UTF8.self)
        let lower = text.lowercased()
        return lower == "id" || lower.hasSuffix("_id") || text.hasSuffix("Id") || text.hasSuffix("ID")
            || lower.hasSuffix("uuid") || lower.hasSuffix("key")
            || ["sku", "slug", "guid", "code", "doi"].contains(lower)
    }

    /// Whether a key reads like a list of identifiers: `…_ids`, `…Ids`, `…IDs`.
    static func isReferenceList(_ key: [UInt8]) -> Bool {
        let text = String(decoding: key, as: UTF8.self)
        return text.lowercased().hasSuffix("_ids") || text.hasSuffix("Ids") || text.hasSuffix("IDs")
    }
}
