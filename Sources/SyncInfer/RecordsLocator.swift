import SyncCore

/// An array of objects found in a body: a candidate for the records.
struct RecordsCandidate: Equatable {
    var path: JSONPath
    /// The offset of the array's `[`.
    var start: Int
    /// The number of arrays and objects around the array.
    var depth: Int
    var count: Int
}

/// Reads a whole body once, checking its grammar, and lists the arrays of objects in it that could be the records.
///
/// Objects are looked into down to ``searchDepth`` keys below the root (deeper when a records path asks for it);
/// array elements are not, except where the records path names an index. The scalars met on the way are the
/// envelope around the records, kept in ``envelope``.
struct RecordsLocator {
    /// How many keys deep the search for a records array goes by itself: enough for a GraphQL connection,
    /// `data.repository.issues.nodes`, and the `pageInfo` beside it.
    static let searchDepth = 5

    private var scanner: JSONScanner
    private let wanted: JSONPath?
    private(set) var candidates: [RecordsCandidate] = []
    /// What the value at the wanted path turned out to be, when it was not an array of objects.
    private(set) var wantedKind: String?
    /// Whether the value at the wanted path is an empty array: a page without records.
    private(set) var wantedIsEmpty = false
    /// Whether the whole body is an empty array.
    private(set) var rootIsEmpty = false
    /// The scalars outside every array, in body order, at most ``EnvelopeValue/maximumCount``.
    private(set) var envelope: [EnvelopeValue] = []

    init(_ bytes: UnsafeRawBufferPointer, wanted: JSONPath?) {
        self.scanner = JSONScanner(bytes)
        self.wanted = wanted
    }

    /// Reads the body, filling ``candidates``.
    ///
    /// - Throws: ``JSONSyntaxError`` where the body is not JSON.
    mutating func run() throws(JSONSyntaxError) {
        scanner.skipByteOrderMark()
        scanner.skipWhitespace()
        guard !scanner.isAtEnd else { throw JSONSyntaxError(.empty, at: scanner.position) }
        try visit(path: .root, depth: 0)
        scanner.skipWhitespace()
        guard scanner.isAtEnd else { throw JSONSyntaxError(.trailingData, at: scanner.position) }
    }

    /// The first byte of the top-level value.
    var firstByte: UInt8? {
        var probe = scanner
        probe.position = 0
        probe.skipByteOrderMark()
        probe.skipWhitespace()
        return probe.isAtEnd ? nil : probe.buffer[probe.position]
    }

    private mutating func visit(path: JSONPath, depth: Int) throws(JSONSyntaxError) {
        let byte = try scanner.currentByte(inside: .topLevel)
        let isWanted = wanted == path
        if byte == JSONByte.openBracket {
            try visitArray(path: path, depth: depth)
        } else if byte == JSONByte.openBrace,
            path.components.count < max(Self.searchDepth, wanted?.components.count ?? 0)
        {
            if isWanted { wantedKind = "an object" }
            try visitObject(path: path, depth: depth)
        } else {
            if isWanted { wantedKind = JSONBodyReader.kind(of: byte) ?? "a value" }
            let start = scanner.position
            try scanner.skipValue(depth: depth, inside: .topLevel)
            if byte != JSONByte.openBrace, envelope.count < EnvelopeValue.maximumCount {
                let literal = UnsafeBufferPointer(rebasing: scanner.buffer[start..<scanner.position])
                envelope.append(
                    EnvelopeValue(path: path, value: EnvelopeValue.value(of: literal), range: start..<scanner.position))
            }
        }
    }

    private mutating func visitObject(path: JSONPath, depth: Int) throws(JSONSyntaxError) {
        guard let inner = try scanner.open(.object, depth: depth) else { return }
        var scratch: [UInt8] = []
        while true {
            let (range, _) = try scanner.scanKeyAndColon()
            let key = JSONStringContent.text(UnsafeBufferPointer(rebasing: scanner.buffer[range]), scratch: &scratch).0
            try visit(path: JSONPath(components: path.components + [.key(key)]), depth: inner)
            guard try scanner.skipCommaOrObjectEnd() else { return }
        }
    }

    /// Counts an array's elements, noting it as a candidate when all are objects, and follows a wanted index.
    private mutating func visitArray(path: JSONPath, depth: Int) throws(JSONSyntaxError) {
        let start = scanner.position
        let inner = try scanner.enter(depth: depth)
        var wantedIndex = -1
        if let wanted, wanted.components.count > path.components.count,
            wanted.prefix(path.components.count) == path,
            case .index(let index) = wanted.components[path.components.count]
        {
            wantedIndex = index
        }
        scanner.position += 1
        scanner.skipWhitespace()
        var count = 0
        var objects = 0
        if try scanner.currentByte(inside: .array) == JSONByte.closeBracket {
            scanner.position += 1
        } else {
            while true {
                if try scanner.currentByte(inside: .array) == JSONByte.openBrace { objects += 1 }
                if count == wantedIndex {
                    try visit(path: JSONPath(components: path.components + [.index(count)]), depth: inner)
                } else {
                    try scanner.skipValue(depth: inner, inside: .array)
                }
                count += 1
                guard try scanner.skipCommaOrArrayEnd() else { break }
            }
        }
        if path == .root, count == 0 { rootIsEmpty = true }
        if objects > 0, objects == count {
            candidates.append(RecordsCandidate(path: path, start: start, depth: depth, count: count))
        } else if wanted == path {
            wantedKind = count == 0 ? "an empty array" : "an array of \(count - objects) non-objects"
            wantedIsEmpty = count == 0
        }
    }
}
