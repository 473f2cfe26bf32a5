package import HTTPTypes
internal import SyncSupport

/// A request head read off the wire by the read API's fast path: one that NIO's HTTP/1 decoder would frame exactly
/// as it is, or nothing.
///
/// The fast path answers some requests without the decoder ever seeing them, and hands it the others whole, so the
/// two must agree on where each request ends. They do for the heads this accepts: a request line of a method NIO's
/// parser knows (not `CONNECT`), a target of visible ASCII starting with `/`, and `HTTP/1.1`; then `name: value`
/// lines of a token and visible ASCII, spaces and tabs, every line ended by CRLF; no `Content-Length`,
/// `Transfer-Encoding` or `Upgrade`, and no `Connection` that closes. The head is then the whole request, and the
/// decoder reads on after it. Anything else (a body, a bare LF, a folded line, a byte past ASCII, `HTTP/1.0`) is
/// `nil`, and from then on the connection's bytes all go to the decoder, which judges them as it always did. The
/// `request-head` fuzz target checks the agreement against NIO's decoder itself.
package struct RequestHead: Equatable, Sendable {
    /// The most bytes a head the fast path reads may take; after a longer one, or this many bytes without a head's
    /// end, the connection is the decoder's (whose own limits then apply).
    package static let maxLength = 16 << 10
    /// The most fields a head the fast path reads may have (NIO's decoder refuses more than 1,000).
    package static let maxFields = 100

    /// Whether the method is `GET`: only a `GET` can be the fast path's.
    package var isGET: Bool
    /// The request target, as it came.
    package var target: String
    /// The first `Host`'s value, as NIO's decoder reads it (spaces and tabs after it kept).
    package var authority: String?
    /// The fields the fast path's answers depend on (`Authorization`, `If-None-Match`, `If-Modified-Since`,
    /// `Prefer`), in the order they came, each made an `HTTPField` as the HTTP codec makes it. No other field is kept.
    package var fields: HTTPFields
    /// Whether a field asks for what only the router does: `Connection` (but a `keep-alive` alone), `Expect`, a
    /// second `Host`, or none.
    package var needsRouter: Bool

    /// Reads `head`, which ends at the first CRLF CRLF of the connection's next bytes (``end(in:from:)``).
    ///
    /// - Returns: `nil` unless NIO's decoder would read `head` as one whole request, as described above, and it is
    ///   at most ``maxLength`` bytes.
    package init?(_ head: UnsafeRawBufferPointer) {
        guard head.count <= Self.maxLength else { return nil }
        var reader = Reader(bytes: head)
        guard let method = reader.token(), reader.skip(" "), let method = Method(method) else { return nil }
        guard let target = reader.target(), reader.skip(" HTTP/1.1"), reader.skip("\r\n") else { return nil }
        isGET = method == .get
        self.target = target
        authority = nil
        fields = HTTPFields()
        needsRouter = false
        var count = 0
        while !reader.skip("\r\n") {
            count += 1
            guard count <= Self.maxFields, let name = reader.token(), reader.skip(":"), let value = reader.fieldValue(),
                reader.skip("\r\n")
            else { return nil }
            switch RequestFieldName(name) {
            case .framing: return nil
            // After a request that closes the connection, the decoder refuses any byte.
            case .connection where value.lowercased().contains("close"): return nil
            // HTTP/1.1 keeps a connection open anyway: a `keep-alive` alone changes nothing in the answer.
            case .connection where Self.isKeepAlive(value): continue
            case .connection, .expect: needsRouter = true
            case .host:
                if authority == nil { authority = value } else { needsRouter = true }
            case .kept(let name): fields.append(HTTPField(name: name, value: value))
            case nil: continue
            }
        }
        guard reader.isAtEnd else { return nil }
        // An HTTP/1.1 request without a Host is refused with a 400 (RFC 9112 §3.2): ``RequestRefusalHandler``'s.
        if authority == nil { needsRouter = true }
    }

    /// Whether a `Connection` value lists `keep-alive` and nothing else (RFC 9110 §7.6.1: a list of tokens).
    package static func isKeepAlive(_ value: String) -> Bool {
        value.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { token in
            token.trimmingOWS().lowercased() == "keep-alive"
        }
    }

    /// Where the head that starts `bytes` ends: the offset just past its first CRLF CRLF, or `nil` when there is
    /// none yet.
    ///
    /// - Parameter searched: How many bytes an earlier call found no end in (the search starts a little before),
    ///   so that a head that arrives a byte at a time costs its length to find, not its square.
    package static func end(in bytes: UnsafeRawBufferPointer, from searched: Int) -> Int? {
        var index = max(searched, 3)
        while index < bytes.count {
            // Each step looks at the last byte of a possible CRLF CRLF and moves past what cannot start one.
            switch bytes[index] {
            case UInt8(ascii: "\n"):
                if bytes[index - 1] == UInt8(ascii: "\r"), bytes[index - 2] == UInt8(ascii: "\n"),
                    bytes[index - 3] == UInt8(ascii: "\r")
                {
                    return index + 1
                }
                index += 2
            case UInt8(ascii: "\r"): index += 1
            default: index += 4
            }
        }
        return nil
    }

    /// Whether a LF without a CR before it is among `bytes` from `searched` on (less the one byte an earlier search
    /// could not judge): a line end this never reads, so a head with one is never found by ``end(in:from:)``.
    package static func hasBareLineFeed(in bytes: UnsafeRawBufferPointer, from searched: Int) -> Bool {
        var index = max(0, searched - 1)
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n"), index == 0 || bytes[index - 1] != UInt8(ascii: "\r") {
                return true
            }
            index += 1
        }
        return false
    }

    /// The methods whose requests may be handed to the decoder as a head alone: those its parser knows, but
    /// `CONNECT`, after which the bytes are a tunnel's.
    private enum Method {
        case get, other

        init?(_ name: UnsafeRawBufferPointer) {
            func named(_ text: StaticString) -> Bool {
                name.elementsEqual(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
            }
            if named("GET") {
                self = .get
            } else if named("HEAD") || named("POST") || named("PUT") || named("DELETE") || named("OPTIONS")
                || named("PATCH") || named("TRACE")
            {
                self = .other
            } else {
                return nil
            }
        }
    }

    /// A cursor over a head's bytes; each method reads one element of the grammar above or nothing.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        /// Moves past `text` when the bytes continue with it.
        mutating func skip(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - index >= count,
                UnsafeRawBufferPointer(rebasing: bytes[index..<index + count])
                    .elementsEqual(UnsafeRawBufferPointer(start: text.utf8Start, count: count))
            else { return false }
            index += count
            return true
        }

        /// One or more token characters (RFC 9110 §5.6.2).
        mutating func token() -> UnsafeRawBufferPointer? {
            let start = index
            while index < bytes.count, HTTPHeaderSyntax.isTokenCharacter(bytes[index]) { index += 1 }
            return index == start ? nil : UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        }

        /// A `/`, then visible ASCII characters: a target in origin form.
        mutating func target() -> String? {
            let start = index
            guard index < bytes.count, bytes[index] == UInt8(ascii: "/") else { return nil }
            while index < bytes.count, bytes[index] > 0x20, bytes[index] < 0x7F { index += 1 }
            return index == start ? nil : String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// Visible ASCII, spaces and tabs up to the line's CR, without the spaces and tabs before it: the value NIO's
        /// decoder reads (which keeps those after it).
        mutating func fieldValue() -> String? {
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\r") {
                let byte = bytes[index]
                guard (byte >= 0x20 && byte < 0x7F) || byte == UInt8(ascii: "\t") else { return nil }
                index += 1
            }
            var first = start
            while first < index, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") { first += 1 }
            return String(decoding: bytes[first..<index], as: UTF8.self)
        }
    }
}

/// A request field's name as the fast path sorts it, matched without allocating (ASCII, any case).
enum RequestFieldName {
    /// `Content-Length`, `Transfer-Encoding`, `Upgrade`: what may make the bytes after the head part of the request.
    case framing
    /// What only the router acts on.
    case connection, expect
    case host
    case kept(HTTPField.Name)

    init?(_ name: UnsafeRawBufferPointer) {
        func matches(_ lowercase: StaticString) -> Bool {
            let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
            return zip(name, expected).allSatisfy { byte, wanted in
                byte == wanted || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") && byte | 0x20 == wanted)
            }
        }
        switch name.count {
        case 4 where matches("host"): self = .host
        case 6 where matches("expect"): self = .expect
        case 6 where matches("prefer"): self = .kept(CacheHeaders.prefer)
        case 7 where matches("upgrade"): self = .framing
        case 10 where matches("connection"): self = .connection
        case 13 where matches("authorization"): self = .kept(.authorization)
        case 13 where matches("cache-control"): self = .kept(.cacheControl)
        case 13 where matches("if-none-match"): self = .kept(.ifNoneMatch)
        case 14 where matches("content-length"): self = .framing
        case 17 where matches("if-modified-since"): self = .kept(.ifModifiedSince)
        case 17 where matches("transfer-encoding"): self = .framing
        default: return nil
        }
    }
}

extension Substring {
    /// Without the spaces and tabs at either end.
    fileprivate func trimmingOWS() -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
