// The one place a parent row's values enter a child endpoint's request: `{parent.COLUMN}` in its URL.

/// A child endpoint's request for one parent row: `{parent.COLUMN}` in the URL replaced by the row's value,
/// percent-encoded.
///
/// The substitution is behind ``render(_:parent:)`` alone, so that a richer template (headers, a JSON body, an
/// encoding per place in the URL) replaces it in one place.
enum ChildRequest {
    /// The marker of a parent's value: `{parent.NAME}`.
    static let prefix = "{parent."

    /// The column names of `{parent.NAME}` in `text`, in order, each once; a `{parent.` without its `}` is none.
    static func placeholders(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let start = rest.firstRange(of: prefix) {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "}") else { break }
            let name = String(rest[..<end])
            if !names.contains(name) { names.append(name) }
            rest = rest[rest.index(after: end)...]
        }
        return names
    }

    /// `url` with each `{parent.NAME}` replaced by a plain value, for the checks of a URL's shape.
    static func sample(_ url: String) -> String {
        render(url) { _ in "x" }
    }

    /// The request of one parent: the endpoint's URL with each `{parent.NAME}` replaced by the parent's value of
    /// column NAME (`value(NAME)`; nil is empty), every byte outside RFC 3986's unreserved characters
    /// percent-encoded (so a `/`, `?`, `&`, `#` or `+` in a value stays in its place).
    static func render(_ url: String, parent value: (String) -> String?) -> String {
        var result = ""
        var rest = Substring(url)
        while let start = rest.firstRange(of: prefix), let end = rest[start.upperBound...].firstIndex(of: "}") {
            result += rest[..<start.lowerBound]
            result += percentEncoded(value(String(rest[start.upperBound..<end])) ?? "")
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    /// `text` with every byte outside RFC 3986's unreserved set (`A-Z a-z 0-9 - . _ ~`) as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
