import SyncCore

/// Chooses columns, their types and the primary key from the shapes of the records.
struct ColumnInference {
    /// Nested objects are flattened down to this many keys below the record; deeper ones become `json`.
    static let maximumPathLength = 3
    /// At most this many columns are proposed.
    static let maximumColumns = 40

    let tree: ShapeTree
    private(set) var columns: [InferredColumn] = []
    private(set) var leftOut: [JSONPath] = []
    /// The node each column came from.
    private var columnNodes: [Int] = []
    private var takenNames: Set<String> = []

    init(tree: ShapeTree) {
        self.tree = tree
        for child in tree.nodes[0].children {
            add(node: child, path: [tree.nodes[child].name])
        }
    }

    private mutating func add(node index: Int, path: [String]) {
        let node = tree.nodes[index]
        let isObjectOnly = node.objects > 0 && node.kindCount == 1 && !node.wasCutOff
        if isObjectOnly, path.count < Self.maximumPathLength, !node.children.isEmpty {
            for child in node.children { add(node: child, path: path + [tree.nodes[child].name]) }
            return
        }
        let jsonPath = JSONPath(components: path.map { .key($0) })
        guard columns.count < Self.maximumColumns else {
            leftOut.append(jsonPath)
            return
        }
        let name = IdentifierNaming.unique(
            IdentifierNaming.snakeCase(path, fallback: "c"), in: &takenNames)
        columns.append(
            InferredColumn(
                name: name, path: jsonPath, type: Self.type(of: node), required: node.nonNull == tree.recordCount))
        columnNodes.append(index)
    }

    /// integer, real, boolean, timestamp or text for one kind of scalar; json for containers and mixed kinds.
    static func type(of node: ShapeNode) -> ColumnType {
        guard node.kindCount == 1 else { return node.kindCount == 0 ? .text : .json }
        if node.integers + node.reals > 0 { return node.reals > 0 ? .real : .integer }
        if node.booleans > 0 { return .boolean }
        if node.strings > 0 { return node.allTimestamps ? .timestamp : .text }
        return .json
    }

    /// The position in ``columns`` of the primary key: a unique, non-null, key-like column (`id`, `…_id`, `…Id`,
    /// `…uuid`, `…key`, `sku`, `slug`, `guid`, `code`, `doi`), the shallowest first and `id` first among equals; else nil.
    ///
    /// A nested column (`repo.id`) serves when no column directly in the record does, as in a list of starred
    /// repositories. A column that merely happens to be unique in the sample (`name`, a counter) is not proposed: a
    /// wrong key would merge records, so the stanza says no key was found instead.
    var primaryKeyPosition: Int? {
        let candidates = columns.indices.filter { position in
            let node = tree.nodes[columnNodes[position]]
            return node.isUnique && !node.isInArray && node.nonNull == tree.recordCount && node.nulls == 0
                && [.integer, .text, .timestamp].contains(columns[position].type) && ShapeTree.isKeyLike(node.key)
        }
        // min(by:) keeps the first of equals, so column order breaks the remaining ties.
        return candidates.min { left, right in
            let (a, b) = (tree.nodes[columnNodes[left]], tree.nodes[columnNodes[right]])
            return (a.depth, a.name == "id" ? 0 : 1) < (b.depth, b.name == "id" ? 0 : 1)
        }
    }

    /// The primary key column's name; see ``primaryKeyPosition``.
    var primaryKey: String? { primaryKeyPosition.map { columns[$0].name } }

    /// The tree node of the primary key column, whose ``ShapeNode/seenValues`` hold the keys' hashes.
    var primaryKeyNode: Int? { primaryKeyPosition.map { columnNodes[$0] } }

    /// The number of fields in each record: columns, and paths left out past the limit.
    var fieldCount: Int { columns.count + leftOut.count }
}
