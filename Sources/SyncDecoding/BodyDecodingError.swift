import SyncSupport

/// The decoding layer's one error: a response body that cannot be used as a whole (none of its records is stored),
/// or a JSON path in the configuration that cannot be read.
///
/// The ``description`` is one sentence naming what is wrong and where:
///
/// ```
/// the response is not valid JSON: at byte 1234 (line 3, column 17) expected a value, found "x"
/// the response is truncated: it ends inside an object at byte 52000
/// the response has no "data.items": the path ends at "data", which has no key "items"
/// "data" in the response is an object, not an array of records
/// invalid JSON path "data..items": a name is missing after a dot
/// ```
///
/// Errors compare by their code only, so a test or a caller can match one with `==`:
///
/// ```swift
/// catch let error as BodyDecodingError where error == .truncated { … }
/// ```
///
/// ## Topics
///
/// - ``notJSON``
/// - ``truncated``
/// - ``tooDeep``
/// - ``trailingData``
/// - ``recordsPathMissing``
/// - ``recordsNotArray``
/// - ``recordsPathRepeated``
/// - ``recordTooLarge``
/// - ``invalidPath``
package struct BodyDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case notJSON = "not_json"
        case truncated
        case tooDeep = "too_deep"
        case trailingData = "trailing_data"
        case recordsPathMissing = "records_path_missing"
        case recordsNotArray = "records_not_array"
        case recordsPathRepeated = "records_path_repeated"
        case recordTooLarge = "record_too_large"
        case invalidPath = "invalid_path"
    }

    private var code: Code
    /// One sentence saying what is wrong with the body, and where.
    package private(set) var description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// The body is not JSON (RFC 8259): a syntax error, bytes that are not UTF-8 in a string, or nothing at all.
    package static let notJSON = BodyDecodingError(.notJSON, "the response is not valid JSON")
    /// The body ends in the middle of a JSON value.
    package static let truncated = BodyDecodingError(.truncated, "the response is truncated")
    /// Arrays and objects nest deeper than the decoder follows (512 levels).
    package static let tooDeep = BodyDecodingError(.tooDeep, "the response nests arrays and objects too deeply")
    /// Something other than whitespace follows the JSON value.
    package static let trailingData = BodyDecodingError(.trailingData, "the response has trailing data")
    /// The configured records path leads nowhere in the body.
    package static let recordsPathMissing = BodyDecodingError(.recordsPathMissing, "the response has no records path")
    /// The value at the records path is not an array.
    package static let recordsNotArray = BodyDecodingError(.recordsNotArray, "the records are not an array")
    /// An object on the records path has the key twice, so which records are meant is ambiguous.
    package static let recordsPathRepeated = BodyDecodingError(
        .recordsPathRepeated,
        "the records path occurs twice in the response"
    )

    /// One record is longer than the decoder holds (`max_record`).
    package static let recordTooLarge = BodyDecodingError(.recordTooLarge, "a record is larger than max_record")

    /// A JSON path in the configuration that cannot be read.
    package static let invalidPath = BodyDecodingError(.invalidPath, "invalid JSON path")

    /// `invalid JSON path "data..items": a name is missing after a dot`.
    static func invalidPath(_ path: String, _ problem: String) -> Self {
        BodyDecodingError(.invalidPath, "invalid JSON path \"\(path)\": \(problem)")
    }

    /// Record `index` (0-based), which starts at byte `offset` of the body, is longer than `limit` bytes.
    static func recordTooLarge(index: Int, offset: Int, limit: Int) -> Self {
        BodyDecodingError(
            .recordTooLarge,
            "record #\(index + 1), from byte \(offset), is larger than max_record (\(ByteSize.format(limit)))")
    }

    /// This error naming the body's media type when that is not JSON's, so that a sign-in page or a proxy's error page
    /// says what it is: `the response is text/html, not JSON: at byte 0 (line 1, column 1) …`.
    ///
    /// Other kinds of error, a JSON media type (`application/json`, `text/json`, `…+json`), no `Content-Type` and one
    /// that is not a plain `type/subtype` of at most 100 characters leave the error as it is.
    ///
    /// - Parameter contentType: The response's `Content-Type`, parameters included.
    /// - Returns: The error with its media type named, or the error itself.
    package func naming(contentType: String?) -> BodyDecodingError {
        let generic = "the response is not valid JSON"
        guard code == .notJSON, description.hasPrefix(generic), let mediaType = Self.otherMediaType(contentType) else {
            return self
        }
        return BodyDecodingError(
            .notJSON, "the response is \(mediaType), not JSON" + description.dropFirst(generic.count))
    }

    /// The media type of `contentType` in lower case, unless it is JSON's or not a plain token pair.
    private static func otherMediaType(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        let mediaType = String(contentType.prefix { $0 != ";" }.filter { $0 != " " && $0 != "\t" }).lowercased()
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$&^_.+-/")
        guard (3...100).contains(mediaType.count), mediaType.allSatisfy(allowed.contains),
            mediaType.filter({ $0 == "/" }).count == 1
        else { return nil }
        if mediaType == "application/json" || mediaType == "text/json" || mediaType.hasSuffix("+json") { return nil }
        return mediaType
    }

    /// A fixed string per kind of error (`not_json`, `truncated`, …), for metric labels.
    package var shortDescription: String { code.rawValue }

    package static func == (lhs: BodyDecodingError, rhs: BodyDecodingError) -> Bool { lhs.code == rhs.code }

    package func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension BodyDecodingError {
    /// The error for a syntax error in `bytes`, with its line and column.
    package init(_ error: JSONSyntaxError, in bytes: UnsafeBufferPointer<UInt8>) {
        let start = min(error.offset, bytes.count)
        let found = UnsafeBufferPointer(rebasing: bytes[start..<min(start + 4, bytes.count)])
        self.init(error, at: JSONTextPosition(offset: error.offset, in: bytes), found: found)
    }

    /// The error for a syntax error whose line and column are known.
    ///
    /// - Parameters:
    ///   - position: where `error.offset` is.
    ///   - found: the body's bytes from `error.offset` on, up to 4 of them (enough for one character); fewer only
    ///     where the body ends.
    init(_ error: JSONSyntaxError, at position: JSONTextPosition, found foundBytes: UnsafeBufferPointer<UInt8>) {
        let found = Self.describeFirstByte(of: foundBytes)
        switch error.problem {
        case .empty:
            self.init(.notJSON, "the response is not valid JSON: it is empty")
        case .unexpectedEnd(let context):
            self.init(.truncated, "the response is truncated: it ends inside \(context.phrase) at byte \(error.offset)")
        case .unexpectedByte(let expected):
            self.init(
                .notJSON, "the response is not valid JSON: \(position) expected \(expected.phrase), found \(found)")
        case .invalidEscape:
            self.init(.notJSON, "the response is not valid JSON: \(position) a string has an invalid escape")
        case .controlCharacter:
            self.init(
                .notJSON, "the response is not valid JSON: \(position) a string holds \(found), which must be escaped")
        case .invalidUTF8:
            self.init(
                .notJSON, "the response is not valid JSON: \(position) a string holds \(found), which is not UTF-8")
        case .leadingZero:
            self.init(.notJSON, "the response is not valid JSON: \(position) a number starts with a superfluous 0")
        case .tooDeep:
            self.init(
                .tooDeep, "the response nests arrays and objects more than \(JSONScanner.maximumDepth) deep \(position)"
            )
        case .trailingData:
            self.init(.trailingData, "the response has trailing data after the JSON value \(position)")
        }
    }

    /// `the response has no "data.items": the path ends at "data", which has no key "items"`.
    ///
    /// - Parameters:
    ///   - recordsPath: the configured records path.
    ///   - reached: the part of it that exists; empty for the top-level value.
    ///   - reason: what the last part holds instead, such as `has no key "items"`.
    static func recordsPathMissing(_ recordsPath: JSONPath, reached: JSONPath, reason: String) -> Self {
        let end = reached.components.isEmpty ? "the top-level value" : "the path ends at \"\(reached)\", which"
        return Self(.recordsPathMissing, "the response has no \"\(recordsPath)\": \(end) \(reason)")
    }

    /// The records path's object at `level` (0 for the top-level value) has no member `key`.
    static func recordsPathMissing(_ recordsPath: JSONPath, level: Int, key: String) -> Self {
        recordsPathMissing(recordsPath, reached: recordsPath.prefix(level), reason: "has no key \"\(key)\"")
    }

    /// The records path's array at `level` has only `count` elements, too few for its index.
    static func recordsPathMissing(_ recordsPath: JSONPath, level: Int, elementCount count: Int) -> Self {
        let reason = count == 0 ? "is an empty array" : "has only \(count) element\(count == 1 ? "" : "s")"
        return recordsPathMissing(recordsPath, reached: recordsPath.prefix(level), reason: reason)
    }

    /// The value at `level` of the records path is `kind` (`an array`, `null`, …), not the object or array needed.
    static func recordsPathMissing(_ recordsPath: JSONPath, level: Int, kind: String, needsObject: Bool) -> Self {
        let reason = "is \(kind), not \(needsObject ? "an object" : "an array")"
        return recordsPathMissing(recordsPath, reached: recordsPath.prefix(level), reason: reason)
    }

    /// `"data" in the response is an object, not an array of records`.
    static func recordsNotArray(_ recordsPath: JSONPath, found: String) -> Self {
        let subject = recordsPath.components.isEmpty ? "the response" : "\"\(recordsPath)\" in the response"
        return Self(.recordsNotArray, "\(subject) is \(found), not an array of records")
    }

    /// `the response has "data" more than once, so which records to use is ambiguous`.
    ///
    /// - Parameter reached: the records path up to and including the repeated key.
    static func recordsPathRepeated(_ reached: JSONPath) -> Self {
        Self(
            .recordsPathRepeated, "the response has \"\(reached)\" more than once, so which records to use is ambiguous"
        )
    }

    /// `"x"`, `"é"`, or `byte 0xFF` for a byte that is not a printable character; `the end` for no byte.
    ///
    /// - Parameter bytes: the byte, followed by up to 3 more that may complete its character.
    private static func describeFirstByte(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let byte = bytes.first else { return "the end" }
        if byte >= 0x20, byte < 0x7F {
            return ColumnValue.jsonString(String(UnicodeScalar(byte)))
        }
        if byte >= 0x80 {
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let scalar) = decoder.decode(&iterator) {
                return ColumnValue.jsonString(String(scalar))
            }
        }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count < 2 ? "0" : "") + hex
    }
}
