package import SyncCore

/// A records request in PostgREST's dialect: `col=op.value` filters, `order`, `limit`, `offset`, `select`.
///
/// ```
/// ?city=eq.Gwenborough&id=in.(1,2)&order=name.desc,id&limit=10&offset=20&select=id,name
/// ```
///
/// Operators: eq, neq, gt, gte, lt, lte, like, ilike (`%` or `*` for any run, `_` for one), `in.(a,b)` (values may be
/// double-quoted to hold commas), `is.null|true|false`, each negatable with `not.`. Order items are
/// `col[.asc|.desc][.nullsfirst|.nullslast]`. Only configured columns may be named; the names are checked
/// when the query runs, against the endpoint's configuration.
package struct PostgRESTQuery: Sendable, Hashable {
    package var query: SyncCache.Query
    /// The columns of `select=a,b`; `nil` for `select=*` (the original records, the default).
    package var select: [String]?

    /// Parses the query string's pairs; a bad one throws ``ReadAPIError/badParameter(_:_:)`` naming it. Every part is
    /// read as Unicode scalars: a combining mark or a line feed never merges with a comma, a dot, a quote or a
    /// parenthesis. The bounds are ``QueryLimits``'.
    init(_ parameters: QueryString) throws(ReadAPIError) {
        var filters: [RecordFilter] = []
        var order: [RecordOrder] = []
        var limit: Int?
        var offset = 0
        select = nil
        for (name, value) in parameters.pairs {
            switch name {
            case "select":
                select = try Self.select(value)
            case "order":
                order = try Self.orderItems(value)
            case "limit":
                limit = try Self.count(value, name)
            case "offset":
                offset = try Self.count(value, name)
            case "or", "and", "not.or", "not.and":
                throw .badParameter(name, "Logical operators (or, and) are not supported; filters are joined by AND.")
            default:
                guard filters.count < QueryLimits.filters else {
                    throw .badParameter(
                        name, "\(name) is one filter too many: the read API takes at most \(QueryLimits.filters).")
                }
                filters.append(try Self.filter(column: name, value))
            }
        }
        query = SyncCache.Query(filters: filters, order: order, limit: limit, offset: offset)
    }

    /// `limit` or `offset`: digits alone, 0 to ``QueryLimits/count``.
    static func count(_ value: String, _ name: String) throws(ReadAPIError) -> Int {
        guard let number = QueryGrammar.natural(value), number <= QueryLimits.count else {
            throw .badParameter(
                name, "\(name) must be a whole number from 0 to \(QueryLimits.count); got \"\(value)\".")
        }
        return Int(number)
    }

    /// `select`: `nil` for `*` or nothing, else the columns, each named once.
    static func select(_ value: String) throws(ReadAPIError) -> [String]? {
        let columns = value.unicodeScalars.split(separator: ",", omittingEmptySubsequences: false).map(trimmed)
        if value.isEmpty || columns == ["*"] { return nil }
        var named = Set<String>()
        for column in columns {
            guard !column.isEmpty, column != "*" else {
                throw .badParameter("select", "select takes * or a list of column names separated by commas.")
            }
            guard named.insert(column).inserted else {
                throw .badParameter("select", "select names the column \(column) twice; each may be named once.")
            }
        }
        return columns
    }

    /// `order`: nothing, or up to ``QueryLimits/orderItems`` items separated by commas.
    static func orderItems(_ value: String) throws(ReadAPIError) -> [RecordOrder] {
        guard !value.isEmpty else { return [] }
        let items = value.unicodeScalars.split(separator: ",", omittingEmptySubsequences: false)
        guard items.count <= QueryLimits.orderItems else {
            throw QueryLimits.tooMany("order", "items", got: items.count, limit: QueryLimits.orderItems)
        }
        return try items.map { item throws(ReadAPIError) in try order(String(item)) }
    }

    /// `col`, then `.asc` or `.desc`, then `.nullsfirst` or `.nullslast`, each optional, in that order.
    static func order(_ item: String) throws(ReadAPIError) -> RecordOrder {
        let parts = item.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let column = parts.first, !column.isEmpty else {
            throw .badParameter("order", "order takes col, col.asc or col.desc (then .nullsfirst or .nullslast).")
        }
        var order = RecordOrder(column: column)
        var modifiers = parts.dropFirst()
        if let direction = modifiers.first, direction == "asc" || direction == "desc" {
            order.descending = direction == "desc"
            modifiers = modifiers.dropFirst()
        }
        if let nulls = modifiers.first, nulls == "nullsfirst" || nulls == "nullslast" {
            order.nullsFirst = nulls == "nullsfirst"
            modifiers = modifiers.dropFirst()
        }
        guard modifiers.isEmpty else {
            throw .badParameter(
                "order",
                "order: \"\(item)\" is not col followed by .asc or .desc, then .nullsfirst or .nullslast, each at "
                    + "most once and in that order.")
        }
        return order
    }

    static func filter(column: String, _ text: String) throws(ReadAPIError) -> RecordFilter {
        var rest = text.unicodeScalars[...]
        var negated = false
        if rest.starts(with: "not.".unicodeScalars) {
            negated = true
            rest = rest.dropFirst(4)
        }
        guard let dot = rest.firstIndex(of: "."),
            case let op = String(rest[..<dot]), RecordFilter.operatorNames.contains(op)
        else { throw notAFilter(column: column, text) }
        let operand = rest[rest.index(after: dot)...]
        var values = [String(operand)]
        if op == "in" {
            guard operand.first == "(", operand.last == ")", operand.count >= 2 else {
                throw .badParameter(
                    column, "\(column): in takes a list in parentheses, like in.(1,2,3), and this one is not.")
            }
            values = try listValues(operand.dropFirst().dropLast(), column: column)
        }
        guard let filter = RecordFilter(column: column, operatorName: op, values: values, negated: negated) else {
            throw notAFilter(column: column, text)
        }
        return filter
    }

    /// A filter's value that does not start with a known operator.
    private static func notAFilter(column: String, _ text: String) -> ReadAPIError {
        let known = RecordFilter.operatorNames.joined(separator: ", ")
        return .badParameter(
            column, "\(column)=\(text) is not a filter: write \(column)=OPERATOR.VALUE with one of \(known).")
    }

    /// `a, "b,c" ,d` → `["a", "b,c", "d"]`: items separated by commas, with spaces and tabs around them; an item
    /// that starts with a double quote ends at the next one not escaped by a backslash, and may be followed by
    /// blanks alone.
    static func listValues(_ text: Substring.UnicodeScalarView, column: String) throws(ReadAPIError) -> [String] {
        guard !text.isEmpty else { return [] }
        var values: [String] = []
        var index = text.startIndex
        func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }
        while true {
            while index < text.endIndex, isBlank(text[index]) { index = text.index(after: index) }
            if index < text.endIndex, text[index] == "\"" {
                var value = String.UnicodeScalarView()
                var closed = false
                index = text.index(after: index)
                while index < text.endIndex {
                    let scalar = text[index]
                    index = text.index(after: index)
                    if scalar == "\"" {
                        closed = true
                        break
                    } else if scalar == "\\", index < text.endIndex {
                        value.append(text[index])
                        index = text.index(after: index)
                    } else if scalar != "\\" {
                        value.append(scalar)
                    }
                }
                while index < text.endIndex, isBlank(text[index]) { index = text.index(after: index) }
                guard closed, index == text.endIndex || text[index] == "," else {
                    throw .badParameter(
                        column,
                        "\(column): a double-quoted value of in.(…) must end with a double quote before the next "
                            + "comma or the closing parenthesis.")
                }
                values.append(String(value))
            } else {
                let start = index
                while index < text.endIndex, text[index] != "," { index = text.index(after: index) }
                values.append(trimmed(text[start..<index]))
            }
            guard values.count <= QueryLimits.inValues else {
                throw .badParameter(
                    column, "\(column): in.(…) holds more than \(QueryLimits.inValues) values, the most it takes.")
            }
            guard index < text.endIndex else { return values }
            index = text.index(after: index)
        }
    }

    /// The scalars without spaces and tabs around them.
    static func trimmed(_ scalars: Substring.UnicodeScalarView) -> String {
        var scalars = scalars
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
