/// One pass of a ``RecordDecoder`` over a response body: follows the records path, walks each record and
/// hands it to the caller, and checks the grammar of everything else on the way.
package struct JSONBodyReader {
    let decoder: RecordDecoder
    var walker: RecordWalker
    /// Reused for every record, so its arrays keep their storage.
    var record: DecodedRecord
    /// Unescaped string content, reused.
    var scratch: [UInt8] = []
    private(set) var recordCount = 0

    init(decoder: RecordDecoder, bytes: UnsafeRawBufferPointer) {
        self.decoder = decoder
        let columnCount = decoder.columns.count
        self.walker = RecordWalker(scanner: JSONScanner(bytes), trie: decoder.trie, columnCount: columnCount)
        self.record = DecodedRecord.empty(columnCount: columnCount)
    }

    private var components: [JSONPath.Component] { decoder.recordsPath.components }

    /// Reads the whole body.
    ///
    /// - Throws: ``JSONSyntaxError``, ``BodyDecodingError`` for records path problems, ``RecordHandlerError``
    ///   around an error of `body`.
    mutating func read(_ body: (borrowing DecodedRecord) throws -> Void) throws {
        walker.scanner.skipByteOrderMark()
        walker.scanner.skipWhitespace()
        guard !walker.scanner.isAtEnd else { throw JSONSyntaxError(.empty, at: walker.scanner.position) }
        try readValue(level: 0, depth: 0, inside: .topLevel, body)
        walker.scanner.skipWhitespace()
        guard walker.scanner.isAtEnd else { throw JSONSyntaxError(.trailingData, at: walker.scanner.position) }
    }

    /// Reads the value at the cursor, where the first `level` components of the records path led.
    private mutating func readValue(
        level: Int,
        depth: Int,
        inside context: JSONContext,
        _ body: (borrowing DecodedRecord) throws -> Void
    ) throws {
        let byte = try walker.scanner.currentByte(inside: context)
        guard let kind = Self.kind(of: byte) else {
            try walker.scanner.skipValue(depth: depth, inside: context)  // throws: not a value
            return
        }
        guard level < components.count else {
            guard byte == JSONByte.openBracket else {
                throw BodyDecodingError.recordsNotArray(decoder.recordsPath, found: kind)
            }
            try readRecords(depth: depth, body)
            return
        }
        switch components[level] {
        case .key(let key):
            guard byte == JSONByte.openBrace else {
                throw BodyDecodingError.recordsPathMissing(
                    decoder.recordsPath, level: level, kind: kind, needsObject: true)
            }
            try readObject(key: key, level: level, depth: depth, body)
        case .index(let index):
            guard byte == JSONByte.openBracket else {
                throw BodyDecodingError.recordsPathMissing(
                    decoder.recordsPath, level: level, kind: kind, needsObject: false)
            }
            try readArray(index: index, level: level, depth: depth, body)
        }
    }

    private mutating func readObject(
        key: String,
        level: Int,
        depth: Int,
        _ body: (borrowing DecodedRecord) throws -> Void
    ) throws {
        let inner = try walker.scanner.enter(depth: depth)
        walker.scanner.position += 1
        walker.scanner.skipWhitespace()
        var found = false
        if try walker.scanner.currentByte(inside: .object) == JSONByte.closeBrace {
            walker.scanner.position += 1
        } else {
            repeat {
                let (content, hasEscapes) = try walker.scanner.scanKeyAndColon()
                if keyEquals(content, hasEscapes: hasEscapes, key) {
                    guard !found else {
                        throw BodyDecodingError.recordsPathRepeated(decoder.recordsPath.prefix(level + 1))
                    }
                    found = true
                    try readValue(level: level + 1, depth: inner, inside: .object, body)
                } else {
                    try walker.scanner.skipValue(depth: inner, inside: .object)
                }
            } while try walker.scanner.skipCommaOrObjectEnd()
        }
        guard found else { throw BodyDecodingError.recordsPathMissing(decoder.recordsPath, level: level, key: key) }
    }

    private mutating func readArray(
        index wanted: Int,
        level: Int,
        depth: Int,
        _ body: (borrowing DecodedRecord) throws -> Void
    ) throws {
        let inner = try walker.scanner.enter(depth: depth)
        walker.scanner.position += 1
        walker.scanner.skipWhitespace()
        var count = 0
        if try walker.scanner.currentByte(inside: .array) == JSONByte.closeBracket {
            walker.scanner.position += 1
        } else {
            repeat {
                if count == wanted {
                    try readValue(level: level + 1, depth: inner, inside: .array, body)
                } else {
                    try walker.scanner.skipValue(depth: inner, inside: .array)
                }
                count += 1
            } while try walker.scanner.skipCommaOrArrayEnd()
        }
        guard count > wanted else {
            throw BodyDecodingError.recordsPathMissing(decoder.recordsPath, level: level, elementCount: count)
        }
    }

    /// Reads the records array at the cursor, yielding each record.
    private mutating func readRecords(depth: Int, _ body: (borrowing DecodedRecord) throws -> Void) throws {
        let inner = try walker.scanner.enter(depth: depth)
        walker.scanner.position += 1
        walker.scanner.skipWhitespace()
        if try walker.scanner.currentByte(inside: .array) == JSONByte.closeBracket {
            walker.scanner.position += 1
            return
        }
        repeat {
            let start = walker.scanner.position
            let isObject = try walker.walkRecord(depth: inner)
            let raw = start..<walker.scanner.position
            guard raw.count <= decoder.maxRecordBytes else {
                throw BodyDecodingError.recordTooLarge(
                    index: recordCount, offset: start, limit: decoder.maxRecordBytes)
            }
            decoder.fill(&record, index: recordCount, raw: raw, isObject: isObject, walker: walker, scratch: &scratch)
            recordCount += 1
            do {
                try body(record)
            } catch {
                throw RecordHandlerError(underlying: error)
            }
        } while try walker.scanner.skipCommaOrArrayEnd()
    }

    private mutating func keyEquals(_ content: Range<Int>, hasEscapes: Bool, _ key: String) -> Bool {
        let raw = UnsafeBufferPointer(rebasing: walker.scanner.buffer[content])
        guard hasEscapes else { return raw.elementsEqual(key.utf8) }
        _ = JSONStringContent.unescape(raw, into: &scratch)
        return scratch.elementsEqual(key.utf8)
    }

    /// "an object", "a string", … for what a value's first byte starts; nil when it starts no value.
    package static func kind(of byte: UInt8) -> String? {
        switch byte {
        case JSONByte.openBrace: "an object"
        case JSONByte.openBracket: "an array"
        case JSONByte.quote: "a string"
        case JSONByte.lowerT, JSONByte.lowerF: "a boolean"
        case JSONByte.lowerN: "null"
        case JSONByte.minus, JSONByte.zero...JSONByte.nine: "a number"
        default: nil
        }
    }
}
