internal import SyncCore

/// A URL's query string as name–value pairs, in order, percent-decoded (`+` is a space, as HTML forms and
/// PostgREST read it). Repeated names are kept: `id=gt.1&id=lt.5` is two filters.
struct QueryString: Sendable {
    var pairs: [(name: String, value: String)]

    init(_ query: Substring) {
        pairs = query.split(separator: "&", omittingEmptySubsequences: true).map { field in
            guard let equals = field.firstIndex(of: "=") else { return (Self.decode(field), "") }
            return (Self.decode(field[..<equals]), Self.decode(field[field.index(after: equals)...]))
        }
    }

    /// The value of the first pair with that name.
    func first(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Percent-decoding (``PercentDecoding``); `+` is a space unless `plusIsSpace` is false (a path segment).
    static func decode(_ text: Substring, plusIsSpace: Bool = true) -> String {
        PercentDecoding.decode(text, plusIsSpace: plusIsSpace)
    }
}
