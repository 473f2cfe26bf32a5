/// The resumable reader behind ``ChunkedRecordDecoder``: it takes a body in chunks of any size, follows the records
/// path, checks the grammar of everything outside the records, and says where each record starts and ends.
///
/// It reads a byte at a time only where it must: a value it can skip whole inside the current chunk is skipped by
/// ``JSONScanner``, and a record that fits in the chunk is walked in place by the caller. The byte machine covers
/// what a chunk boundary cuts. It keeps no bytes, only its phase, one flag per open array or object (at most
/// ``JSONScanner/maximumDepth``), and the key being compared with the records path. It finds the same errors, at the
/// same offsets, as ``JSONBodyReader`` and ``JSONScanner`` do on the whole body.
///
/// Errors: ``JSONSyntaxError`` (offsets in the whole body) and ``BodyDecodingError`` for the records path.
struct BodySplitter {
    /// Where in the grammar the next byte falls.
    enum Phase {
        /// At the body's start, where a byte order mark may begin.
        case start
        /// After a byte order mark's first byte (0xEF), or its first two (0xEF 0xBB).
        case byteOrderMarkSecond, byteOrderMarkThird
        /// Before the top-level value.
        case topValue
        /// After `:`, or after `,` in an array.
        case value
        case firstKeyOrObjectEnd, key, colon, commaOrObjectEnd
        case firstValueOrArrayEnd, commaOrArrayEnd
        /// After the top-level value: only whitespace may follow.
        case afterTopValue
        /// In a string (``BodySplitter/isKey`` says which), after a backslash, in a `\u` escape's digits, or in
        /// a UTF-8 sequence's continuation bytes.
        case string, escape, unicodeEscape, continuation
        /// In a number: after `-`, after a leading `0`, in the integer digits, after `.`, in the fraction digits,
        /// after `e`, after the exponent's sign, in the exponent's digits.
        case minus, zero, integer, point, fraction, exponent, exponentSign, exponentDigits
        /// In `true`, `false` or `null`.
        case literal

        /// Whether the phase is between the members of an array or object, where whole ones can be skipped.
        var isBetweenMembers: Bool {
            switch self {
            case .value, .firstKeyOrObjectEnd, .key, .commaOrObjectEnd, .firstValueOrArrayEnd, .commaOrArrayEnd: true
            default: false
            }
        }
    }

    /// Why ``run(_:from:)`` returned.
    enum Stop: Equatable {
        /// It reached the chunk's end.
        case chunkEnd
        /// A record starts at this index; the caller walks it in place or calls ``beginRecord()``.
        case recordStart(Int)
        /// The record begun with ``beginRecord()`` ends before this index.
        case recordEnd(Int)
    }

    let recordsPath: JSONPath
    /// The UTF-8 of each key on the records path; empty for an index.
    let pathKeys: [[UInt8]]
    /// The index of each index on the records path; -1 for a key.
    let pathIndices: [Int]

    var phase = Phase.start
    /// The offset in the body of the current chunk's first byte.
    var consumed = 0
    /// Per open array or object, outermost first: whether it is an object.
    var containers: [Bool] = []
    /// How many of the outermost containers are on the records path; the records array is the last of them.
    var pathContainers = 0
    /// Per level of the records path: whether its object had the key yet; for an array, its elements so far.
    var pathFound: [Bool]
    var pathElements: [Int]
    /// Whether the value after the current colon is on the records path.
    var valueIsOnPath = false
    /// Whether a record begun with ``beginRecord()`` has not ended yet.
    private(set) var isInRecord = false
    /// Where ``run(_:from:)`` must stop at the end of the current step, if it must.
    var stop: Stop?
    /// How many more values may be tried whole in the current chunk; each failed try scans to the chunk's end.
    var wholeValueTries = 0
    /// The offset in the body of the last value whose try failed, so that it is not tried twice.
    var failedWholeValue = -1

    // The token being read.
    var isKey = false
    /// The offset in the body of the current escape's backslash, or of the current UTF-8 sequence's lead byte.
    var tokenStart = 0
    /// The `\u` digits, or UTF-8 continuation bytes, still to come.
    var tokenRemaining = 0
    /// The range of the next UTF-8 continuation byte.
    var continuationLowest: UInt8 = 0x80
    var continuationHighest: UInt8 = 0xBF
    var literal: StaticString = "null"
    var literalOffset = 0

    // The key being compared with the records path.
    var isCollectingKey = false
    var keyBytes: [UInt8] = []
    var keyHasEscapes = false
    var keyIsTooLong = false
    var keyMatches = false
    var keyScratch: [UInt8] = []

    init(recordsPath: JSONPath) {
        self.recordsPath = recordsPath
        self.pathKeys = recordsPath.components.map { component in
            if case .key(let key) = component { Array(key.utf8) } else { [] }
        }
        self.pathIndices = recordsPath.components.map { component in
            if case .index(let index) = component { index } else { -1 }
        }
        self.pathFound = Array(repeating: false, count: recordsPath.components.count)
        self.pathElements = Array(repeating: 0, count: recordsPath.components.count)
    }

    /// The number of arrays and objects around a record: what ``RecordWalker/walkRecord(depth:)`` needs.
    var recordDepth: Int { containers.count }

    /// Whether the records array is the innermost open container.
    var isInRecordsArray: Bool { pathContainers == pathKeys.count + 1 && containers.count == pathContainers }

    /// Reads the chunk from `start` until its end or until a record starts or ends.
    ///
    /// - Throws: ``JSONSyntaxError`` or ``BodyDecodingError``.
    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws -> Stop {
        var index = start
        while index < bytes.count {
            index = try step(bytes, at: index)
            if let stop {
                self.stop = nil
                return stop
            }
        }
        return .chunkEnd
    }

    /// The record at the index ``run(_:from:)`` returned was walked in place; reading goes on after it.
    mutating func recordWasReadInPlace() {
        phase = .commaOrArrayEnd
    }

    /// The record at the index ``run(_:from:)`` returned goes on past the chunk; the splitter reads it byte by byte
    /// and stops with ``Stop/recordEnd(_:)`` where it ends.
    mutating func beginRecord() {
        isInRecord = true
    }

    /// Moves on to the next chunk.
    mutating func endChunk(count: Int, nextChunkWholeValueTries tries: Int) {
        consumed += count
        wholeValueTries = tries
    }

    /// The body ended: checks that it held a whole value.
    ///
    /// - Throws: ``JSONSyntaxError`` for a body that is empty or ends inside a value, at the offsets
    ///   ``JSONScanner`` gives.
    mutating func finish() throws(JSONSyntaxError) {
        let context: JSONContext
        switch phase {
        case .afterTopValue:
            return
        case .start, .topValue:
            throw JSONSyntaxError(.empty, at: consumed)
        case .byteOrderMarkSecond, .byteOrderMarkThird:
            throw JSONSyntaxError(.unexpectedByte(expected: .value), at: 0)
        case .value, .firstKeyOrObjectEnd, .key, .colon, .commaOrObjectEnd, .firstValueOrArrayEnd, .commaOrArrayEnd:
            context = containers.last == true ? .object : .array
        case .string, .escape, .unicodeEscape, .continuation:
            context = .string
        case .zero, .integer, .fraction, .exponentDigits:
            // The number is whole; its container is not.
            _ = valueEnded(at: 0)
            stop = nil
            try finish()
            return
        case .minus, .point, .exponent, .exponentSign:
            context = .number
        case .literal:
            context = .literal
        }
        throw JSONSyntaxError(.unexpectedEnd(inside: context), at: consumed)
    }

    /// Handles one byte (or a run of them) in the current phase; returns the index of the next byte to read.
    private mutating func step(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws -> Int {
        if wholeValueTries > 0, containers.count > pathContainers, phase.isBetweenMembers {
            let next = try skipMembers(bytes, at: index)
            if next > index { return next }
        }
        let byte = bytes[index]
        switch phase {
        case .start:
            guard byte == 0xEF else {
                phase = .topValue
                return index
            }
            phase = .byteOrderMarkSecond
            return index + 1
        case .byteOrderMarkSecond, .byteOrderMarkThird:
            let expected: UInt8 = phase == .byteOrderMarkSecond ? 0xBB : 0xBF
            // No byte order mark after all: the first byte starts no value.
            guard byte == expected else { throw JSONSyntaxError(.unexpectedByte(expected: .value), at: 0) }
            phase = phase == .byteOrderMarkSecond ? .byteOrderMarkThird : .topValue
            return index + 1
        case .topValue, .value:
            if Self.isWhitespace(byte) { return index + 1 }
            return try beginValue(bytes, at: index)
        case .firstKeyOrObjectEnd, .key:
            if Self.isWhitespace(byte) { return index + 1 }
            if byte == JSONByte.closeBrace, phase == .firstKeyOrObjectEnd { return try endContainer(at: index) }
            guard byte == JSONByte.quote else { throw unexpected(.key, at: index) }
            beginKey()
            return index + 1
        case .colon:
            if Self.isWhitespace(byte) { return index + 1 }
            guard byte == JSONByte.colon else { throw unexpected(.colon, at: index) }
            try endKey()
            phase = .value
            return index + 1
        case .commaOrObjectEnd:
            if Self.isWhitespace(byte) { return index + 1 }
            if byte == JSONByte.closeBrace { return try endContainer(at: index) }
            guard byte == JSONByte.comma else { throw unexpected(.commaOrObjectEnd, at: index) }
            phase = .key
            return index + 1
        case .firstValueOrArrayEnd:
            if Self.isWhitespace(byte) { return index + 1 }
            if byte == JSONByte.closeBracket { return try endContainer(at: index) }
            return try beginValue(bytes, at: index)
        case .commaOrArrayEnd:
            if Self.isWhitespace(byte) { return index + 1 }
            if byte == JSONByte.closeBracket { return try endContainer(at: index) }
            guard byte == JSONByte.comma else { throw unexpected(.commaOrArrayEnd, at: index) }
            phase = .value
            return index + 1
        case .afterTopValue:
            if Self.isWhitespace(byte) { return index + 1 }
            throw JSONSyntaxError(.trailingData, at: consumed + index)
        case .string, .escape, .unicodeEscape, .continuation:
            return try stepString(bytes, at: index)
        case .minus, .zero, .integer, .point, .fraction, .exponent, .exponentSign, .exponentDigits:
            return try stepNumber(byte, at: index)
        case .literal:
            return try stepLiteral(byte, at: index)
        }
    }

    /// A value starts at `index`: a record, a value on the records path, or a value to check and skip.
    private mutating func beginValue(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws -> Int {
        let byte = bytes[index]
        guard JSONBodyReader.kind(of: byte) != nil else { throw unexpected(.value, at: index) }
        switch try role(ofValueStartingWith: byte) {
        case .record:
            guard isInRecord else {
                stop = .recordStart(index)
                return index
            }
        case .onPath(let level):
            let next = try openValue(byte, at: index)
            pathContainers = level + 1
            if level < pathKeys.count {
                pathFound[level] = false
                pathElements[level] = 0
            }
            return next
        case .skipped:
            if wholeValueTries > 0, let end = try skipWhole(bytes, at: index) { return valueEnded(at: end) }
        }
        return try openValue(byte, at: index)
    }

    /// Starts reading the value whose first byte is at `index`, a byte at a time.
    private mutating func openValue(_ byte: UInt8, at index: Int) throws -> Int {
        switch byte {
        case JSONByte.quote:
            isKey = false
            phase = .string
        case JSONByte.openBrace, JSONByte.openBracket:
            guard containers.count < JSONScanner.maximumDepth else {
                throw JSONSyntaxError(.tooDeep, at: consumed + index)
            }
            let isObject = byte == JSONByte.openBrace
            containers.append(isObject)
            phase = isObject ? .firstKeyOrObjectEnd : .firstValueOrArrayEnd
        case JSONByte.lowerT, JSONByte.lowerF, JSONByte.lowerN:
            literal = byte == JSONByte.lowerT ? "true" : byte == JSONByte.lowerF ? "false" : "null"
            literalOffset = 1
            phase = .literal
        case JSONByte.minus:
            phase = .minus
        case JSONByte.zero:
            phase = .zero
        default:
            phase = .integer
        }
        return index + 1
    }

    /// The value that ends before `index` is done; the phase returns to its container's.
    ///
    /// - Returns: `index`, where reading goes on.
    mutating func valueEnded(at index: Int) -> Int {
        guard let isObject = containers.last else {
            phase = .afterTopValue
            return index
        }
        phase = isObject ? .commaOrObjectEnd : .commaOrArrayEnd
        if isInRecord, isInRecordsArray {
            isInRecord = false
            stop = .recordEnd(index)
        }
        return index
    }

    /// The `}` or `]` at `index` closes the innermost container.
    private mutating func endContainer(at index: Int) throws -> Int {
        let level = containers.count - 1
        if level < pathContainers {
            try checkPathContainerEnd(level: level)
            pathContainers = level
        }
        containers.removeLast()
        return valueEnded(at: index + 1)
    }

    func unexpected(_ expected: JSONExpectation, at index: Int) -> JSONSyntaxError {
        JSONSyntaxError(.unexpectedByte(expected: expected), at: consumed + index)
    }

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == JSONByte.space || byte == JSONByte.newline || byte == JSONByte.carriageReturn || byte == JSONByte.tab
    }

    @inline(__always)
    static func startsNumber(_ byte: UInt8) -> Bool {
        byte == JSONByte.minus || JSONByte.isDigit(byte)
    }
}
