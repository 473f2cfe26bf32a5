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
    package var query: RecordQuery
    /// The columns of `select=a,b`; `nil` for `select=*` (the original records, the default).
    package var select: [String]?

    /// Parses the query string's pairs; a bad one throws ``ReadAPIError/badParameter(_:_:)`` naming it.
    init(_ parameters: QueryString) throws(ReadAPIError) {
        query = RecordQuery()
        select = nil
        for (name, value) in parameters.pairs {
            switch name {
            case "select":
                let columns = value.split(separator: ",", omittingEmptySubsequences: false).map {
                    String($0.trimmingASCIISpaces)
                }
                if columns == ["*"] || value.isEmpty {
                    select = nil
                } else {
                    guard !columns.contains(where: { $0.isEmpty || $0 == "*" }) else {
                        throw .badParameter(name, "Select takes * or a list of column names separated by commas.")
                    }
                    select = columns
                }
            case "order":
                query.order = try value.split(separator: ",").map { item throws(ReadAPIError) in
                    try Self.order(item)
                }
            case "limit":
                guard let limit = Int(value), limit >= 0 else {
                    throw .badParameter(name, "Limit must be a whole number, 0 or more; got \"\(value)\".")
                }
                query.limit = limit
            case "offset":
                guard let offset = Int(value), offset >= 0 else {
                    throw .badParameter(name, "Offset must be a whole number, 0 or more; got \"\(value)\".")
                }
                query.offset = offset
            case "or", "and", "not.or", "not.and":
                throw .badParameter(name, "Logical operators (or, and) are not supported; filters are joined by AND.")
            default:
                query.filters.append(try Self.filter(column: name, value))
            }
        }
    }

    static func filter(column: String, _ text: String) throws(ReadAPIError) -> RecordFilter {
        var rest = Substring(text)
        var negated = false
        if rest.hasPrefix("not.") {
            negated = true
            rest = rest.dropFirst(4)
        }
        guard let dot = rest.firstIndex(of: "."),
            let op = RecordFilter.Operator(rawValue: String(rest[..<dot]))
        else {
            let known = RecordFilter.Operator.allCases.map(\.rawValue).joined(separator: ", ")
            throw .badParameter(
                column, "\(column)=\(text) is not a filter: write \(column)=OPERATOR.VALUE with one of \(known).")
        }
        let operand = rest[rest.index(after: dot)...]
        var values = [String(operand)]
        if op == .in {
            guard operand.hasPrefix("("), operand.hasSuffix(")"), operand.count >= 2,
                let list = listValues(operand.dropFirst().dropLast())
            else {
                throw .badParameter(column, "\(column)=\(text): in takes a list in parentheses, like in.(1,2,3).")
            }
            values = list
        }
        return RecordFilter(column: column, op: op, values: values, negated: negated)
    }

    /// `a,"b,c",d` → `["a", "b,c", "d"]`; a backslash escapes the next character inside quotes. `nil` if a quote
    /// is not closed.
    static func listValues(_ text: Substring) -> [String]? {
        guard !text.isEmpty else { return [] }
        var values: [String] = []
        var current = ""
        var quoted = false
        var wasQuoted = false
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted {
                switch character {
                case "\\": escaped = true
                case "\"": quoted = false
                default: current.append(character)
                }
            } else {
                switch character {
                case "\"" where current.isEmpty && !wasQuoted:
                    quoted = true
                    wasQuoted = true
                case ",":
                    values.append(wasQuoted ? current : String(current.trimmingASCIISpaces))
                    current = ""
                    wasQuoted = false
                default:
                    current.append(character)
                }
            }
        }
        guard !quoted else { return nil }
        values.append(wasQuoted ? current : String(current.trimmingASCIISpaces))
        return values
    }

    static func order(_ item: Substring) throws(ReadAPIError) -> RecordOrder {
        let parts = item.split(separator: ".", omittingEmptySubsequences: false)
        guard let column = parts.first, !column.isEmpty, parts.count <= 3 else {
            throw .badParameter("order", "Order takes col, col.asc or col.desc (then .nullsfirst or .nullslast).")
        }
        var order = RecordOrder(column: String(column))
        for modifier in parts.dropFirst() {
            switch modifier {
            case "asc": order.descending = false
            case "desc": order.descending = true
            case "nullsfirst": order.nullsFirst = true
            case "nullslast": order.nullsFirst = false
            default:
                throw .badParameter(
                    "order", "Order: \"\(modifier)\" is not asc, desc, nullsfirst or nullslast (in \"\(item)\").")
            }
        }
        return order
    }
}
