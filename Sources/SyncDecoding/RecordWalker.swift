/// Walks one record with a ``ColumnTrie``, noting where each column's value lies in the body.
///
/// Only the keys and indices on some column's path are looked at; everything else is skipped, its
/// grammar still checked. When a key occurs twice in one object the last occurrence wins, as in most
/// JSON readers: a repeated key clears what its earlier occurrence captured.
package struct RecordWalker {
    var scanner: JSONScanner
    let trie: ColumnTrie
    /// Per column, the start offset of its value in the body, or -1 when the record has none.
    package var valueStarts: [Int]
    /// Per column, the end offset of its value; meaningful only where `valueStarts` is not -1.
    package var valueEnds: [Int]
    /// Unescaped keys that held escapes, compared against the trie.
    var keyScratch: [UInt8] = []
    /// Where the fields that no column maps are noted, when someone asks (a sync's schema-drift journal).
    var tally: SchemaTally?

    package init(scanner: JSONScanner, trie: ColumnTrie, columnCount: Int) {
        self.scanner = scanner
        self.trie = trie
        self.valueStarts = Array(repeating: -1, count: columnCount)
        self.valueEnds = Array(repeating: 0, count: columnCount)
    }

    /// The bytes of a column's value, or nil when the record has none.
    package func value(ofColumn column: Int) -> UnsafeBufferPointer<UInt8>? {
        let start = valueStarts[column]
        guard start >= 0 else { return nil }
        return UnsafeBufferPointer(rebasing: scanner.buffer[start..<valueEnds[column]])
    }

    /// Walks the record at the cursor, whose enclosing array is at `depth`.
    ///
    /// - Returns: whether the record is an object.
    package mutating func walkRecord(depth: Int) throws(JSONSyntaxError) -> Bool {
        for column in valueStarts.indices { valueStarts[column] = -1 }
        let isObject = try scanner.currentByte(inside: .array) == JSONByte.openBrace
        try walkValue(node: 0, depth: depth, inside: .array)
        return isObject
    }

    /// Walks the value at the cursor for a trie node, capturing the range of the columns that end there.
    private mutating func walkValue(node nodeIndex: Int, depth: Int, inside context: JSONContext)
        throws(JSONSyntaxError)
    {
        let node = trie.nodes[nodeIndex]
        for nested in node.nestedColumns { valueStarts[trie.nestedColumnIndices[nested]] = -1 }
        let start = scanner.position
        let byte = try scanner.currentByte(inside: context)
        if byte == JSONByte.openBrace, node.hasKeyChildren {
            try walkObject(node, index: nodeIndex, depth: depth)
        } else if byte == JSONByte.openBracket, node.hasIndexChildren {
            try walkArray(node, depth: depth)
        } else {
            try scanner.skipValue(depth: depth, inside: context)
        }
        for entry in node.columns {
            let column = trie.columnIndices[entry]
            valueStarts[column] = start
            valueEnds[column] = scanner.position
        }
    }

    private mutating func walkObject(_ node: ColumnTrie.Node, index nodeIndex: Int, depth: Int)
        throws(JSONSyntaxError)
    {
        guard let inner = try scanner.open(.object, depth: depth) else { return }
        while true {
            let (key, hasEscapes) = try scanner.scanKeyAndColon()
            if let child = matchingChild(of: node, key: key, hasEscapes: hasEscapes) {
                try walkValue(node: child, depth: inner, inside: .object)
            } else {
                let start = scanner.position
                try scanner.skipValue(depth: inner, inside: .object)
                // A value that reaches the buffer's end may be a number cut by a chunk: the record is walked again
                // whole, and the field noted then. (Not `tally != nil`, which copied the tally, retaining its
                // storage, for every field no column maps.)
                if scanner.position < scanner.buffer.count {
                    tally?.noteField(
                        node: nodeIndex, key: UnsafeBufferPointer(rebasing: scanner.buffer[key]),
                        value: UnsafeBufferPointer(rebasing: scanner.buffer[start..<scanner.position]), trie: trie)
                }
            }
            guard try scanner.skipCommaOrObjectEnd() else { return }
        }
    }

    private mutating func walkArray(_ node: ColumnTrie.Node, depth: Int) throws(JSONSyntaxError) {
        guard let inner = try scanner.open(.array, depth: depth) else { return }
        var index = 0
        while true {
            if let child = trie.child(of: node, index: index) {
                try walkValue(node: child, depth: inner, inside: .array)
            } else {
                try scanner.skipValue(depth: inner, inside: .array)
            }
            index += 1
            guard try scanner.skipCommaOrArrayEnd() else { return }
        }
    }

    @inline(__always)
    private mutating func matchingChild(of node: ColumnTrie.Node, key: Range<Int>, hasEscapes: Bool) -> Int? {
        let raw = UnsafeBufferPointer(rebasing: scanner.buffer[key])
        guard hasEscapes else { return trie.child(of: node, key: raw) }
        _ = JSONStringContent.unescape(raw, into: &keyScratch)
        return keyScratch.withUnsafeBufferPointer { trie.child(of: node, key: $0) }
    }
}
