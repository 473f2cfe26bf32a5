package import SyncDecoding
import SyncSupport

/// The JSON body an endpoint sends with each request (`method = "POST"`, `body` or `body_file`): a GraphQL query
/// and its variables, or a search API's filter. A cursor pagination with `body_path` replaces the value at that path
/// page after page; every other byte goes out as written.
package struct RequestBody: Sendable, Hashable {
    /// The largest body accepted: a GraphQL query is a few KiB.
    package static let maxBytes = 1 << 20
    /// Where a GraphQL response says what went wrong (`{"errors": [{"message": …}]}`): a 200 holding it fails the
    /// run with that message.
    package static let graphQLErrorPath: JSONPath = JSONPath(components: [.key("errors"), .index(0), .key("message")])

    /// The body as written, checked to be one JSON value.
    package let bytes: [UInt8]
    /// Whether the body is a GraphQL request: a JSON object with a string `query`.
    package let isGraphQL: Bool

    /// Checks that `text` is one JSON value of at most 1 MiB.
    ///
    /// - Throws: the problem, in the TOML file's words, starting with `key`: `body must be JSON: …`.
    package init(_ text: String, key: String = "body") throws(OptionProblem) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maxBytes else {
            throw OptionProblem(key: key, "\(key) must be at most \(ByteCount.format(Self.maxBytes))")
        }
        let problem = bytes.withUnsafeBytes { buffer -> BodyDecodingError? in
            do throws(BodyDecodingError) {
                try JSONDocumentCheck.validate(buffer)
                return nil
            } catch {
                return error
            }
        }
        if let problem {
            // The decoder's sentences speak of a response; this is the request's body.
            var sentence = problem.description
            if sentence.hasPrefix("the response ") { sentence = "it " + sentence.dropFirst("the response ".count) }
            throw OptionProblem(key: key, "\(key) must be one JSON value; \(sentence)")
        }
        self.bytes = bytes
        let query = Self.range(of: JSONPath(components: [.key("query")]), in: bytes)
        isGraphQL = query.map { bytes[$0.lowerBound] == JSONByte.quote } ?? false
    }

    /// Whether the body holds a value at `path`.
    package func holdsValue(at path: JSONPath) -> Bool {
        Self.range(of: path, in: bytes) != nil
    }

    /// The body with its value at `path` replaced by `json`, a JSON value; nil when the body holds none there.
    package func replacing(_ path: JSONPath, with json: String) -> [UInt8]? {
        guard let range = Self.range(of: path, in: bytes) else { return nil }
        var replaced = Array(bytes[..<range.lowerBound])
        replaced.reserveCapacity(bytes.count + json.utf8.count)
        replaced.append(contentsOf: json.utf8)
        replaced.append(contentsOf: bytes[range.upperBound...])
        return replaced
    }

    /// The bytes of the value at `path` in a body already checked to be JSON; nil when it holds none there.
    private static func range(of path: JSONPath, in bytes: [UInt8]) -> Range<Int>? {
        bytes.withUnsafeBytes { buffer -> Range<Int>? in
            var scanner = JSONScanner(buffer)
            scanner.skipByteOrderMark()
            scanner.skipWhitespace()
            var walker = RecordWalker(scanner: scanner, trie: ColumnTrie(paths: [path]), columnCount: 1)
            do throws(JSONSyntaxError) {
                _ = try walker.walkRecord(depth: 0)
            } catch {
                return nil
            }
            let start = walker.valueStarts[0]
            return start < 0 ? nil : start..<walker.valueEnds[0]
        }
    }
}

extension RequestBody {
    /// The checks of `method`, `body` and a pagination's `body_path` together, written once for syncd.toml and
    /// ``SyncEndpoint``: the body to send, or the problems (keys `method`, `body`, `body_path`).
    package static func compile(
        method: SyncEndpoint.Method, body: String?, bodyKey: String = "body", pagination: PaginationConfiguration?,
        problems: inout [OptionProblem]
    ) -> RequestBody? {
        var compiled: RequestBody?
        if let body {
            if method == .get {
                problems.append(
                    OptionProblem(key: bodyKey, "\(bodyKey) is sent only with method = \"POST\"; add method = \"POST\"")
                )
            }
            do {
                compiled = try RequestBody(body, key: bodyKey)
            } catch {
                problems.append(error)
            }
        }
        if let path = pagination?.bodyPath {
            if body == nil {
                problems.append(
                    OptionProblem(
                        key: "body_path",
                        "pagination: body_path needs a request body (body or body_file) holding a value there, such "
                            + "as \"after\": null"))
            } else if let compiled, !compiled.holdsValue(at: path) {
                problems.append(
                    OptionProblem(
                        key: "body_path",
                        "pagination: body_path \"\(path)\" names no value of the request body; write one there, "
                            + "such as null for the first page"))
            }
        }
        return compiled
    }
}
