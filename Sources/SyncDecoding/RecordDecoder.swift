/// Reads the records of a JSON response one at a time, straight from its bytes.
///
/// The decoder finds the array at the records path, and for each element yields a ``DecodedRecord``:
/// the element's exact bytes (stored as `_raw`, never re-serialised), the configured columns'
/// values converted to their types, and the problems met on the way. No tree of the body is built:
/// only the keys on some column's path are looked at, the rest is skipped while its grammar is checked.
///
/// ```swift
/// let decoder = RecordDecoder(
///     recordsPath: try JSONPath(parsing: "data"),
///     columns: [
///         ColumnSpec(name: "id", path: try JSONPath(parsing: "id"), type: .integer),
///         ColumnSpec(name: "lat", path: try JSONPath(parsing: "address.geo.lat"), type: .real),
///     ],
///     keyColumns: [0],
///     strict: false
/// )
/// let count = try decoder.decode(body) { record in
///     guard !record.isRejected else { return }
///     try store.upsert(record.values, raw: body[record.raw])
/// }
/// ```
///
/// One bad record never sinks the others: it is rejected or gets NULLs, with ``DecodingProblem``s
/// saying why. Only a body that cannot be used as a whole throws ``BodyDecodingError``.
///
/// ## Topics
///
/// - ``init(recordsPath:columns:keyColumns:strict:)``
/// - ``decode(_:_:)``
/// - ``decodeRecord(_:index:)``
package struct RecordDecoder: Sendable {
    let recordsPath: JSONPath
    package let columns: [ColumnSpec]
    let keyColumns: [Int]
    let strict: Bool
    let trie: ColumnTrie
    /// Per column: required by its spec, or part of the key.
    let isRequired: [Bool]
    /// Per column, its type, read in the loop without touching the specs.
    let types: [ColumnType]
    /// Per column, its path as problems show it.
    let pathDescriptions: [String]
    /// The most bytes one record may have: a longer one throws ``BodyDecodingError/recordTooLarge``, from the
    /// whole-body reader and the chunked one alike, so that a record is never held past this. The default is 16 MiB.
    package var maxRecordBytes = 16 << 20

    /// Makes a decoder for one endpoint's configuration.
    ///
    /// - Parameters:
    ///   - recordsPath: where the array of records is in a response; ``JSONPath/root`` when the response is the array.
    ///   - columns: the configured columns, in table order.
    ///   - keyColumns: the primary key, as indices into `columns`; these columns are always required.
    ///   - strict: `true` accepts only each type's first form in ``ColumnType``'s table (`"12"` is then not an
    ///     integer).
    package init(recordsPath: JSONPath, columns: [ColumnSpec], keyColumns: [Int], strict: Bool) {
        precondition(keyColumns.allSatisfy(columns.indices.contains), "a key column is not one of the columns")
        self.recordsPath = recordsPath
        self.columns = columns
        self.keyColumns = keyColumns
        self.strict = strict
        self.trie = ColumnTrie(paths: columns.map(\.path))
        self.isRequired = columns.indices.map { columns[$0].required || keyColumns.contains($0) }
        self.types = columns.map(\.type)
        self.pathDescriptions = columns.map(\.path.description)
    }

    /// Reads a whole response body, calling `body` with each record in order.
    ///
    /// All of the body's JSON is checked, also outside the records, so a body that is cut off or broken
    /// anywhere throws, even after some records were yielded: a caller keeps nothing of such a body.
    ///
    /// - Parameters:
    ///   - bytes: the response body, UTF-8 JSON, perhaps starting with a byte order mark.
    ///   - body: called once per record. The record's storage is reused for the next one.
    /// - Returns: the number of records seen, rejected ones included.
    /// - Throws: ``BodyDecodingError`` when the body is not JSON, is truncated, nests too deeply, has trailing
    ///   data, or has no array at the records path; any error thrown by `body`, unchanged.
    package func decode(_ bytes: UnsafeRawBufferPointer, _ body: (borrowing DecodedRecord) throws -> Void) throws -> Int
    {
        var reader = JSONBodyReader(decoder: self, bytes: bytes)
        do {
            try reader.read(body)
        } catch let error as JSONSyntaxError {
            throw BodyDecodingError(error, in: reader.walker.scanner.buffer)
        } catch let error as RecordHandlerError {
            throw error.underlying
        }
        return reader.recordCount
    }

    /// Reads a whole response body, calling `body` with each record in order.
    ///
    /// - Parameters:
    ///   - bytes: the response body.
    ///   - body: called once per record. The record's storage is reused for the next one.
    /// - Returns: the number of records seen, rejected ones included.
    /// - Throws: ``BodyDecodingError``, or any error thrown by `body`, unchanged.
    package func decode(_ bytes: [UInt8], _ body: (borrowing DecodedRecord) throws -> Void) throws -> Int {
        try bytes.withUnsafeBytes { buffer in try decode(buffer, body) }
    }

    /// Decodes one stored record, such as a `_raw` read back from the database to fill a newly configured column.
    ///
    /// - Parameters:
    ///   - bytes: one JSON value, normally an object.
    ///   - index: the position to report in problems.
    /// - Returns: the record; malformed JSON gives a rejected record whose problem is at `$`, never a throw.
    package func decodeRecord(_ bytes: UnsafeRawBufferPointer, index: Int) -> DecodedRecord {
        var walker = RecordWalker(scanner: JSONScanner(bytes), trie: trie, columnCount: columns.count)
        var record = DecodedRecord(
            index: index,
            raw: 0..<bytes.count,
            values: Array(repeating: .null, count: columns.count),
            problems: [],
            isRejected: false
        )
        var scratch: [UInt8] = []
        do throws(JSONSyntaxError) {
            walker.scanner.skipByteOrderMark()
            walker.scanner.skipWhitespace()
            let start = walker.scanner.position
            guard !walker.scanner.isAtEnd else { throw JSONSyntaxError(.empty, at: start) }
            let isObject = try walker.walkRecord(depth: 0)
            let end = walker.scanner.position
            walker.scanner.skipWhitespace()
            guard walker.scanner.isAtEnd else { throw JSONSyntaxError(.trailingData, at: walker.scanner.position) }
            fill(&record, index: index, raw: start..<end, isObject: isObject, walker: walker, scratch: &scratch)
        } catch {
            record.isRejected = true
            record.problems = [
                DecodingProblem(
                    recordIndex: index,
                    recordKey: nil,
                    recordLabel: "#\(index)",
                    path: "$",
                    column: nil,
                    expected: "object",
                    found: "invalid JSON",
                    action: .rejected
                )
            ]
        }
        return record
    }
}

/// An error thrown by the caller's closure, carried through the reader untouched.
struct RecordHandlerError: Error {
    var underlying: any Error
}
