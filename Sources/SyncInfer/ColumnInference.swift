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

    /// `id` when unique and non-null in every record; else a unique, non-null key-like column (`…_id`, `…Id`,
    /// `…uuid`, `…key`, `sku`, `slug`, `guid`, `code`); else none. Only keys directly in the record count. A column
    /// that merely happens to be unique in the sample (`name`, a counter) is not proposed: a wrong key would merge
    /// records, so the stanza says no key was found instead.
    var primaryKey: String? {
        let candidates = columns.indices.filter { position in
            let node = tree.nodes[columnNodes[position]]
            return node.depth == 1 && node.isUnique && node.nonNull == tree.recordCount && node.nulls == 0
                && [.integer, .text, .timestamp].contains(columns[position].type)
        }
        if let id = candidates.first(where: { tree.nodes[columnNodes[$0]].name == "id" }) { return columns[id].name }
        return candidates.first(where: { ShapeTree.isKeyLike(tree.nodes[columnNodes[$0]].key) }).map {
            columns[$0].name
        }
    }
}
