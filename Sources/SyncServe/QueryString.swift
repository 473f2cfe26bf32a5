internal import SyncCore
import SyncSupport

/// A URL's query string as name–value pairs, in order, percent-decoded (`+` is a space, as HTML forms and
/// PostgREST read it). Repeated names are kept: `id=gt.1&id=lt.5` is two filters.
///
/// `&` and `=` are found among Unicode scalars, never among Characters: a combining mark or a line feed after one
/// must not hide it.
struct QueryString: Sendable {
    var pairs: [(name: String, value: String)]

    /// - Throws: ``ReadAPIError/badParameter(_:_:)`` when the query string is longer than
    ///   ``QueryLimits/queryBytes``, or a name or value longer than ``QueryLimits/valueScalars``.
    init(_ query: Substring) throws(ReadAPIError) {
        let bytes = query.utf8.count
        guard bytes <= QueryLimits.queryBytes else {
            throw .badParameter(
                "query",
                "The query string is \(bytes) bytes long; the read API reads at most \(QueryLimits.queryBytes).")
        }
        pairs = []
        for field in query.unicodeScalars.split(separator: "&") {
            var name = Substring(field)
            var value = Substring()
            if let equals = field.firstIndex(of: "=") {
                name = Substring(field[..<equals])
                value = Substring(field[field.index(after: equals)...])
            }
            let pair = (name: Self.decode(name), value: Self.decode(value))
            let nameLength = pair.name.unicodeScalars.count
            guard nameLength <= QueryLimits.valueScalars else {
                throw .badParameter(
                    "query",
                    "A parameter's name is \(nameLength) characters long; the read API reads at most "
                        + "\(QueryLimits.valueScalars).")
            }
            let valueLength = pair.value.unicodeScalars.count
            guard valueLength <= QueryLimits.valueScalars else {
                throw .badParameter(
                    pair.name,
                    "The value of \(pair.name) is \(valueLength) characters long; the read API reads at most "
                        + "\(QueryLimits.valueScalars).")
            }
            pairs.append(pair)
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
