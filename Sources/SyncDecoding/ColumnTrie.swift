/// The configured column paths merged into a tree, so that one walk over a record visits only what
/// some column needs: `address.city` and `address.geo.lat` share the `address` node.
///
/// Stored flat (nodes, children and key bytes in arrays, node 0 the record itself) so that the walk
/// reads plain integers instead of retaining nested arrays.
package struct ColumnTrie: Sendable {
    struct Node: Sendable {
        var firstChild = 0
        var childCount = 0
        /// The columns whose path ends here, as a range of ``ColumnTrie/columnIndices``.
        var columns: Range<Int> = 0..<0
        /// The columns whose path ends below this node, as a range of ``ColumnTrie/nestedColumnIndices``;
        /// a repeated key clears them, since the last occurrence wins.
        var nestedColumns: Range<Int> = 0..<0
        var hasKeyChildren = false
        var hasIndexChildren = false
    }

    struct Child: Sendable {
        /// The key's UTF-8, as a range of ``ColumnTrie/keyBytes``; empty for an index.
        var key: Range<Int>
        /// The array index, or -1 for a key.
        var index: Int
        var node: Int
    }

    private(set) var nodes: [Node]
    private(set) var children: [Child]
    private(set) var keyBytes: [UInt8]
    private(set) var columnIndices: [Int]
    private(set) var nestedColumnIndices: [Int]
    /// Each node's path in the record: where the fields that no column maps are found.
    private(set) var nodePaths: [JSONPath]

    package init(paths: [JSONPath]) {
        var builder = Builder()
        for (column, path) in paths.enumerated() {
            builder.insert(path.components, column: column)
        }
        nodes = []
        children = []
        keyBytes = []
        columnIndices = []
        nestedColumnIndices = []
        // A child is always added after its parent: one pass in order gives every node its path.
        nodePaths = Array(repeating: JSONPath.root, count: builder.nodes.count)
        for (index, builderNode) in builder.nodes.enumerated() {
            for (component, child) in builderNode.children {
                nodePaths[child] = JSONPath(components: nodePaths[index].components + [component])
            }
        }
        for builderNode in builder.nodes {
            var node = Node()
            node.firstChild = children.count
            node.childCount = builderNode.children.count
            for (component, childNode) in builderNode.children {
                switch component {
                case .key(let key):
                    let start = keyBytes.count
                    keyBytes.append(contentsOf: key.utf8)
                    children.append(Child(key: start..<keyBytes.count, index: -1, node: childNode))
                    node.hasKeyChildren = true
                case .index(let index):
                    children.append(Child(key: 0..<0, index: index, node: childNode))
                    node.hasIndexChildren = true
                }
            }
            let columnStart = columnIndices.count
            columnIndices.append(contentsOf: builderNode.columns)
            node.columns = columnStart..<columnIndices.count
            nodes.append(node)
        }
        for index in nodes.indices {
            let start = nestedColumnIndices.count
            nestedColumnIndices.append(contentsOf: builder.nestedColumns(below: index))
            nodes[index].nestedColumns = start..<nestedColumnIndices.count
        }
    }

    /// The child of `node` for a key whose UTF-8 is `key`, if a column path goes there.
    @inline(__always)
    func child(of node: Node, key: UnsafeBufferPointer<UInt8>) -> Int? {
        var childIndex = node.firstChild
        let end = node.firstChild + node.childCount
        while childIndex < end {
            let child = children[childIndex]
            if child.index < 0, child.key.count == key.count, matches(child.key, key) {
                return child.node
            }
            childIndex += 1
        }
        return nil
    }

    /// The child of `node` for an array index, if a column path goes there.
    func child(of node: Node, index: Int) -> Int? {
        for child in children[node.firstChild..<(node.firstChild + node.childCount)] where child.index == index {
            return child.node
        }
        return nil
    }

    @inline(__always)
    private func matches(_ stored: Range<Int>, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        var offset = 0
        while offset < key.count {
            guard keyBytes[stored.lowerBound + offset] == key[offset] else { return false }
            offset += 1
        }
        return true
    }
}

/// The trie as it is built: nested, then flattened by ``ColumnTrie/init(paths:)``.
private struct Builder {
    struct Node {
        var children: [(JSONPath.Component, Int)] = []
        var columns: [Int] = []
    }

    var nodes = [Node()]

    mutating func insert(_ components: [JSONPath.Component], column: Int) {
        var current = 0
        for component in components {
            if let existing = nodes[current].children.first(where: { $0.0 == component }) {
                current = existing.1
            } else {
                nodes.append(Node())
                nodes[current].children.append((component, nodes.count - 1))
                current = nodes.count - 1
            }
        }
        nodes[current].columns.append(column)
    }

    /// The columns of every node strictly below `node`.
    func nestedColumns(below node: Int) -> [Int] {
        var result: [Int] = []
        var pending = nodes[node].children.map(\.1)
        while let next = pending.popLast() {
            result.append(contentsOf: nodes[next].columns)
            pending.append(contentsOf: nodes[next].children.map(\.1))
        }
        return result
    }
}
