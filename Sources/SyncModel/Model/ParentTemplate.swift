import SyncSupport

/// A child endpoint's `url`, header value or `body` with `{parent.NAME}` placeholders, each replaced by the value of
/// the parent row's column `NAME`, encoded for where it stands.
///
/// ```swift
/// let url = try ParentTemplate(parsing: "https://api.example.com/repos/{parent.id}/issues?q={parent.name}", for: .url)
/// url.names                                                       // ["id", "name"]
/// try url.render(["id": .integer(8), "name": .text("a b+c")])
/// // https://api.example.com/repos/8/issues?q=a%20b%2Bc
/// ```
///
/// The rules, by place:
/// - **Syntax.** A placeholder is `{parent.NAME}` (or `{parent.NAME:path}`, below), `NAME` a column name as the
///   configuration writes them (`^[a-z][a-z0-9_]{0,62}$`). Only the opener `{parent.` is special: every other brace is
///   sent as written, so a JSON body needs no escaping. `{{parent.` stands for a literal `{parent.`. An opener with no
///   `}`, a name that is not a column name, or another suffix than `:path` is a problem naming the placeholder.
/// - **URL path.** The value is one path segment: every byte outside RFC 3986's `pchar` is percent-encoded, `/` too
///   (`a/b` is sent as `a%2Fb`), so that a value can never change which path is asked for — as RFC 6570's `{var}` does.
///   A value meant as several segments, GitHub's `full_name` (`acme/widgets`), is written `{parent.full_name:path}`:
///   each segment is encoded and the `/` between them kept (RFC 6570 needs a second operator for this, `{+var}`; here
///   the suffix says it where it is used). A segment that comes out empty, `.` or `..` is refused, as it would step
///   out of the path the template names.
/// - **URL query.** Everything but the unreserved characters is percent-encoded: a space is `%20`, `+` is `%2B`, and
///   `&`, `=` and `#` cannot start another parameter.
/// - **Scheme, host and fragment.** No placeholder: the parent's rows do not choose where requests go, and a fragment
///   is never sent.
/// - **Header value.** The value as is; a value with a control character (CR, LF, NUL, a tab…) is refused, which
///   would end or split the header.
/// - **JSON body.** A placeholder stands inside a JSON string, and the value is JSON-escaped there:
///   `{"repo": "{parent.id}"}` sends `{"repo": "8"}`, a string. (A placeholder outside a string would make the
///   template itself no JSON, which ``RequestBody`` checks as written; an API that wants a number takes it from a
///   GraphQL or search variable typed as one, or as the string.)
/// - **Values.** Text as is, integers in decimal, reals in their shortest form with a whole real written as an integer
///   (`1e10` is `10000000000`); booleans are stored as `1` and `0` and sent so. A null, or a rendering longer than
///   ``ConfigurationBounds/renderedURLBytes`` (a URL) or ``ConfigurationBounds/renderedHeaderBytes`` (a header) or
///   ``RequestBody/maxBytes`` (a body), is refused: a ``Problem`` whose sentence says why, and that parent is not
///   walked.
package struct ParentTemplate: Sendable, Hashable {
    /// Where a template's text is used: the endpoint's `url`, one of its `headers` values, or its `body`.
    package enum Use: Sendable, Hashable {
        case url
        case header
        case body
    }

    /// Where one placeholder stands, which decides how its value is encoded.
    package enum Slot: Sendable, Hashable {
        /// In a URL path: one segment, or several with `:path`.
        case path(segments: Bool)
        /// In a URL query, a name or a value.
        case query
        /// In a header value.
        case header
        /// Inside a JSON string of the body.
        case jsonString
    }

    /// A piece of the template: text sent as written, or a column's value.
    package enum Part: Sendable, Hashable {
        case literal(String)
        case value(column: String, slot: Slot)
    }

    /// Why a template cannot be read or rendered: one sentence naming the placeholder, never the value.
    package struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        package var description: String

        package init(_ description: String) {
            self.description = description
        }
    }

    /// The text's pieces, in order.
    package let parts: [Part]
    /// How the text is used.
    package let use: Use

    /// The columns the placeholders name, each once, in the order they first appear; empty for a text without a
    /// placeholder (which renders as written).
    package var names: [String] {
        var seen = Set<String>()
        return parts.compactMap { part -> String? in
            guard case .value(let column, _) = part, seen.insert(column).inserted else { return nil }
            return column
        }
    }

    /// Whether the text holds a placeholder.
    package var isTemplate: Bool { !names.isEmpty }

    /// The text with every placeholder standing for `1`, and `{{parent.` as the literal it is: what the configuration's
    /// own rules (``URLRules``, ``RequestBody``, header syntax) check of a template, as they would of a plain value.
    package var exampleText: String {
        parts.map { part in
            switch part {
            case .literal(let text): text
            case .value: "1"
            }
        }.joined()
    }

    /// Whether `text` holds the opener `{parent.` at all: a quick check before parsing.
    package static func mentionsParent(_ text: String) -> Bool {
        text.contains("{parent.")
    }

    /// Reads `text`, used as `use` says.
    ///
    /// - Throws: ``Problem`` for an opener without `}`, a name that is not a column name, a suffix other than
    ///   `:path` (or `:path` outside a URL path), and a placeholder in a place it may not stand.
    package init(parsing text: String, for use: Use) throws(Problem) {
        self.use = use
        let bytes = Array(text.utf8)
        let opener = Array("{parent.".utf8)
        var parts: [Part] = []
        var literal: [UInt8] = []
        var place = PlaceTracker(use: use)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "{"), bytes[(index + 1)...].starts(with: opener) {
                // `{{parent.` is a literal `{parent.`.
                literal += opener
                index += 1 + opener.count
                continue
            }
            guard bytes[index...].starts(with: opener) else {
                literal.append(bytes[index])
                index += 1
                continue
            }
            let start = index + opener.count
            guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "}")) else {
                let shown = String(decoding: bytes[index...].prefix(40), as: UTF8.self)
                throw Problem(
                    "the placeholder \"\(ControlCharacters.escaped(shown, .terminal))…\" is not closed with \"}\"")
            }
            let content = String(decoding: bytes[start..<end], as: UTF8.self)
            let written = "{parent.\(ControlCharacters.escaped(content, .terminal))}"
            let (column, spansSegments) = try Self.placeholder(content, written: written)
            let literalText = String(decoding: literal, as: UTF8.self)
            place.advance(over: literalText)
            if !literal.isEmpty { parts.append(.literal(literalText)) }
            literal.removeAll()
            let slot = try place.slot(for: written, spansSegments: spansSegments)
            parts.append(.value(column: column, slot: slot))
            index = end + 1
        }
        if !literal.isEmpty { parts.append(.literal(String(decoding: literal, as: UTF8.self))) }
        self.parts = parts
    }

    /// The column a placeholder's content names (`full_name` or `full_name:path`), and whether it has `:path`.
    private static func placeholder(_ content: String, written: String) throws(Problem) -> (String, Bool) {
        var name = Substring(content)
        var spansSegments = false
        if let colon = content.firstIndex(of: ":") {
            let suffix = content[content.index(after: colon)...]
            guard suffix == "path" else {
                throw Problem(
                    "\(written): the only form after the name is \":path\" (a value of several path segments)")
            }
            (name, spansSegments) = (content[..<colon], true)
        }
        if let problem = NameRules.identifierProblem(String(name), kind: "column name") {
            throw Problem("\(written): \(problem)")
        }
        return (String(name), spansSegments)
    }
}

/// Where the text read so far has got to, for the next placeholder's ``ParentTemplate/Slot``: in a URL, the scheme and
/// host, the path, the query or the fragment; in a body, inside a JSON string or not.
private struct PlaceTracker {
    enum URLPart { case authority, path, query, fragment }

    let use: ParentTemplate.Use
    var urlPart = URLPart.authority
    /// The last three characters of the scheme read so far, and whether they were `://`: the host follows.
    var schemeTail = ""
    var sawScheme = false
    var inString = false
    var escaped = false

    init(use: ParentTemplate.Use) {
        self.use = use
    }

    mutating func advance(over literal: String) {
        switch use {
        case .header: return
        case .body:
            for byte in literal.utf8 {
                if escaped {
                    escaped = false
                } else if inString, byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString.toggle()
                }
            }
        case .url:
            for character in literal.unicodeScalars {
                switch (urlPart, character) {
                case (.authority, _):
                    // The path starts at the first `/` after `scheme://` (`file:///x`'s right after it).
                    if sawScheme, character == "/" {
                        urlPart = .path
                    } else if sawScheme, character == "?" {
                        urlPart = .query
                    } else if sawScheme, character == "#" {
                        urlPart = .fragment
                    } else {
                        schemeTail = String((schemeTail + String(character)).suffix(3))
                        sawScheme = sawScheme || schemeTail == "://"
                    }
                case (.path, "?"): urlPart = .query
                case (.path, "#"), (.query, "#"): urlPart = .fragment
                default: break
                }
            }
        }
    }

    func slot(for written: String, spansSegments: Bool) throws(ParentTemplate.Problem) -> ParentTemplate.Slot {
        let slot: ParentTemplate.Slot
        switch use {
        case .header: slot = .header
        case .body:
            guard inString else {
                throw ParentTemplate.Problem(
                    "\(written) must stand inside a JSON string, such as \"\(written)\": its value is sent as a string")
            }
            slot = .jsonString
        case .url:
            switch urlPart {
            case .authority:
                throw ParentTemplate.Problem(
                    "\(written) may not stand in the URL's scheme or host: a parent's row does not choose where "
                        + "requests go")
            case .path: slot = .path(segments: spansSegments)
            case .query: slot = .query
            case .fragment:
                throw ParentTemplate.Problem("\(written) may not stand in the URL's fragment, which is never sent")
            }
        }
        if spansSegments, slot != .path(segments: true) {
            throw ParentTemplate.Problem("\(written): \":path\" is only for a placeholder in the URL's path")
        }
        return slot
    }
}
