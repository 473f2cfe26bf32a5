import SyncCore
import SyncSupport

/// `{parent.NAME}` templates (``ParentTemplate``): any text reads as a template or is one sentence; a template renders
/// any values to text or one sentence; and what it renders is usable where it goes — a URL that was valid with plain
/// values is still a valid URL, a header value holds no CR, LF or NUL, a body that was JSON is still JSON — and each
/// value's encoding decodes back to it.
///
/// Input: one byte choosing the use — `U`RL, `H`eader, `B`ody (any other byte picks by its value) — then the template's
/// text; after a NUL, the values, NUL-separated, given to the template's names in order, each starting with a byte
/// for its kind: `t`ext, `i`nteger, `r`eal, `n`ull (any other: text).
enum ParentTemplateTarget {
    static func run(_ input: UnsafeBufferPointer<UInt8>) throws(FuzzFailure) {
        guard let first = input.first else { return }
        let uses: [(UInt8, ParentTemplate.Use)] = [
            (UInt8(ascii: "U"), .url), (UInt8(ascii: "H"), .header), (UInt8(ascii: "B"), .body),
        ]
        let use = uses.first { $0.0 == first }?.1 ?? uses[Int(first) % uses.count].1
        let rest = input.dropFirst()
        let fields = rest.split(separator: 0, omittingEmptySubsequences: false)
        let text = fields.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let values = fields.dropFirst().map(value)
        let template: ParentTemplate
        do {
            template = try ParentTemplate(parsing: text, for: use)
        } catch {
            try require(!error.description.isEmpty, "a template refused without a sentence")
            return
        }
        for name in template.names {
            try require(NameRules.identifierProblem(name, kind: "column name") == nil, "the name \(name) was read")
        }
        var row: [String: ColumnValue] = [:]
        for (name, value) in zip(template.names, values) { row[name] = value }
        for name in template.names where row[name] == nil { row[name] = .integer(1) }
        for value in row.values { try checkEncodings(value) }
        let rendered: String
        do {
            rendered = try template.render(row)
        } catch {
            try require(!error.description.isEmpty, "a rendering refused without a sentence")
            return
        }
        // The same template with a plain value everywhere: what the text itself makes.
        let plain = try? template.render { _ in .integer(1) }
        switch use {
        case .url:
            try require(rendered.utf8.count <= ConfigurationBounds.renderedURLBytes, "a URL past the limit")
            if let plain, URLRules.isValid(plain) {
                try require(
                    URLRules.isValid(rendered), "\(plain.debugDescription) is a URL, \(rendered.debugDescription) not")
            }
        case .header:
            if !HTTPHeaderSyntax.hasForbiddenByte(text) {
                try require(!HTTPHeaderSyntax.hasForbiddenByte(rendered), "a header value with CR, LF or NUL")
            }
        case .body:
            if (try? RequestBody(text)) != nil, rendered.utf8.count < RequestBody.maxBytes {
                do {
                    _ = try RequestBody(rendered)
                } catch {
                    throw FuzzFailure(
                        "the body \(text.debugDescription) rendered \(rendered.debugDescription): \(error)")
                }
            }
        }
    }

    /// Each place's encoding of a value decodes back to it, and a path segment's and a query value's hold none of the
    /// characters that would end them.
    static func checkEncodings(_ value: ColumnValue) throws(FuzzFailure) {
        guard let text = try? ParentTemplate.text(of: value, column: "x") else { return }
        let segment = try? ParentTemplate.encode(text, column: "x", slot: .path(segments: false))
        let query = try? ParentTemplate.encode(text, column: "x", slot: .query)
        for (encoded, plusIsSpace, ending) in [(segment, false, "/?#"), (query, true, "&=#+ ")] {
            guard let encoded else { throw FuzzFailure("a URL encoding refused \(text.debugDescription)") }
            try require(!encoded.contains { ending.contains($0) }, "\(text.debugDescription) encoded as \(encoded)")
            // A value that is not UTF-8 was already read with U+FFFD for its bad bytes.
            try require(
                PercentDecoding.decode(Substring(encoded), plusIsSpace: plusIsSpace) == text,
                "\(encoded) does not decode back to \(text.debugDescription)")
        }
    }

    private static func value(_ field: Slice<UnsafeBufferPointer<UInt8>>) -> ColumnValue {
        let text = String(decoding: field.dropFirst(), as: UTF8.self)
        switch field.first ?? 0 {
        case UInt8(ascii: "i"): return Int64(text).map(ColumnValue.integer) ?? .integer(Int64(text.utf8.count))
        case UInt8(ascii: "r"): return Double(text).map(ColumnValue.real) ?? .real(Double(text.utf8.count) / 3)
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "t"): return .text(text)
        default: return .text(String(decoding: field, as: UTF8.self))
        }
    }
}
