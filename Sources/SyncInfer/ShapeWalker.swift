import SyncCore

/// Walks records byte by byte into a ``ShapeTree``: every key and value is looked at, nothing is kept but counts.
///
/// The body's grammar was checked by ``RecordsLocator`` first, but the walker still goes through ``JSONScanner``,
/// so a body that changed under it can only produce a ``JSONSyntaxError``.
struct ShapeWalker {
    var scanner: JSONScanner
    var tree: ShapeTree
    /// Unescaped keys that held escapes.
    private var keyScratch: [UInt8] = []

    init(scanner: JSONScanner, tree: ShapeTree = ShapeTree()) {
        self.scanner = scanner
        self.tree = tree
    }

    /// Walks the record at the cursor, inside an array at `depth` nesting levels of the body.
    mutating func walkRecord(depth: Int) throws(JSONSyntaxError) {
        tree.recordCount += 1
        try walkValue(node: 0, depth: depth)
    }

    private mutating func walkValue(node: Int, depth: Int) throws(JSONSyntaxError) {
        let start = scanner.position
        tree.nodes[node].present += 1
        switch try scanner.currentByte(inside: .array) {
        case JSONByte.quote:
            let hasEscapes = try scanner.scanString()
            tree.nodes[node].strings += 1
            if tree.nodes[node].allTimestamps {
                let content = UnsafeBufferPointer(rebasing: scanner.buffer[(start + 1)..<(scanner.position - 1)])
                if hasEscapes || RFC3339Timestamp(parsing: content, allowsSpace: false) == nil {
                    tree.nodes[node].allTimestamps = false
                }
            }
        case JSONByte.openBrace:
            tree.nodes[node].objects += 1
            if tree.nodes[node].depth < ShapeTree.maximumDepth {
                try walkObject(node: node, depth: depth)
            } else {
                tree.nodes[node].wasCutOff = true
                try scanner.skipObject(depth: depth)
            }
        case JSONByte.openBracket:
            tree.nodes[node].arrays += 1
            if tree.nodes[node].depth < ShapeTree.maximumDepth {
                try walkArray(node: node, depth: depth)
            } else {
                tree.nodes[node].wasCutOff = true
                try scanner.skipArray(depth: depth)
            }
        case JSONByte.lowerT, JSONByte.lowerF:
            try scanner.skipValue(depth: depth, inside: .array)
            tree.nodes[node].booleans += 1
        case JSONByte.lowerN:
            try scanner.scanLiteral("null")
            tree.nodes[node].nulls += 1
            return
        default:
            try scanner.skipValue(depth: depth, inside: .array)
            if Self.isIntegral(UnsafeBufferPointer(rebasing: scanner.buffer[start..<scanner.position])) {
                tree.nodes[node].integers += 1
            } else {
                tree.nodes[node].reals += 1
            }
        }
        let isScalar = scanner.buffer[start] != JSONByte.openBrace && scanner.buffer[start] != JSONByte.openBracket
        guard tree.nodes[node].seenValues != nil || (isScalar && tree.nodes[node].referenceValues != nil) else {
            return
        }
        let hash = Self.hash(UnsafeBufferPointer(rebasing: scanner.buffer[start..<scanner.position]))
        if tree.nodes[node].seenValues != nil { noteValue(node: node, hash: hash) }
        if isScalar, tree.nodes[node].referenceValues != nil { tree.noteReference(node: node, hash: hash) }
    }

    /// Adds a value's hash to the node's set; a repeated one (or a container) ends the tracking.
    private mutating func noteValue(node: Int, hash: Int) {
        if tree.nodes[node].objects > 0 || tree.nodes[node].arrays > 0
            || tree.nodes[node].seenValues?.insert(hash).inserted == false
        {
            tree.nodes[node].seenValues = nil
        }
    }

    /// The hash of a value's bytes as written, so that `"42"` and `42` differ and equal literals match.
    static func hash(_ literal: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(literal))
        return hasher.finalize()
    }

    private mutating func walkObject(node: Int, depth: Int) throws(JSONSyntaxError) {
        guard let inner = try scanner.open(.object, depth: depth) else { return }
        var index = 0
        while true {
            let (key, hasEscapes) = try scanner.scanKeyAndColon()
            let child: Int
            if hasEscapes {
                _ = JSONStringContent.unescape(UnsafeBufferPointer(rebasing: scanner.buffer[key]), into: &keyScratch)
                child = keyScratch.withUnsafeBufferPointer { tree.child(of: node, key: $0, hint: index) }
            } else {
                child = tree.child(of: node, key: UnsafeBufferPointer(rebasing: scanner.buffer[key]), hint: index)
            }
            try walkValue(node: child, depth: inner)
            index += 1
            guard try scanner.skipCommaOrObjectEnd() else { return }
        }
    }

    private mutating func walkArray(node: Int, depth: Int) throws(JSONSyntaxError) {
        guard let inner = try scanner.open(.array, depth: depth) else { return }
        let element = tree.element(of: node)
        while true {
            try walkValue(node: element, depth: inner)
            guard try scanner.skipCommaOrArrayEnd() else { return }
        }
    }

    /// Whether a number literal has neither fraction nor exponent, and fits in 64 bits.
    static func isIntegral(_ literal: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !literal.contains(where: { $0 == JSONByte.period || $0 | 0x20 == JSONByte.lowerE }) else { return false }
        let digits = literal.first == JSONByte.minus ? literal.count - 1 : literal.count
        return digits <= 18
    }
}
