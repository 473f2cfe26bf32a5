/// A read of an endpoint's records: filters on configured columns (``RecordFilter``), an order (``RecordOrder``), a page.
///
/// The operators are PostgREST's, which the read API speaks; the CLI's `--where COL=VALUE` is `eq`.
package struct RecordQuery: Sendable, Hashable {
    package var filters: [RecordFilter]
    /// Empty: by primary key.
    package var order: [RecordOrder]
    package var limit: Int?
    package var offset: Int

    package init(filters: [RecordFilter] = [], order: [RecordOrder] = [], limit: Int? = nil, offset: Int = 0) {
        self.filters = filters
        self.order = order
        self.limit = limit
        self.offset = offset
    }
}

/// A condition on a configured column, as the read API's PostgREST filters say it.
public struct RecordFilter: Sendable, Hashable {
    package enum Operator: String, Sendable, Hashable, CaseIterable {
        case eq, neq, gt, gte, lt, lte, like, ilike, `in`, `is`

        /// The SQL operator of a comparison (`=`, `<>`, `>`, `>=`, `<`, `<=`); `=` for the others.
        package var comparison: String {
            switch self {
            case .neq: "<>"
            case .gt: ">"
            case .gte: ">="
            case .lt: "<"
            case .lte: "<="
            case .eq, .like, .ilike, .in, .is: "="
            }
        }
    }

    package var column: String
    package var op: Operator
    /// The operand as written: converted to the column's type when the query runs. For `in`, the list;
    /// for `is`, `null`, `true` or `false`.
    package var values: [String]
    package var negated: Bool

    package init(column: String, op: Operator, values: [String], negated: Bool = false) {
        self.column = column
        self.op = op
        self.values = values
        self.negated = negated
    }

    /// `column = value` (the value is converted to the column's type).
    public static func equal(_ column: String, _ value: String) -> RecordFilter {
        RecordFilter(column: column, op: .eq, values: [value])
    }

    /// `column <> value`.
    public static func notEqual(_ column: String, _ value: String) -> RecordFilter {
        RecordFilter(column: column, op: .neq, values: [value])
    }

    /// `column > value`.
    public static func greaterThan(_ column: String, _ value: String) -> RecordFilter {
        RecordFilter(column: column, op: .gt, values: [value])
    }

    /// `column < value`.
    public static func lessThan(_ column: String, _ value: String) -> RecordFilter {
        RecordFilter(column: column, op: .lt, values: [value])
    }

    /// The column's value is one of `values`.
    public static func oneOf(_ column: String, _ values: [String]) -> RecordFilter {
        RecordFilter(column: column, op: .in, values: values)
    }

    /// PostgREST's `like`: `*` matches any run of characters; case-sensitive.
    public static func like(_ column: String, _ pattern: String) -> RecordFilter {
        RecordFilter(column: column, op: .like, values: [pattern])
    }

    /// The column is NULL.
    public static func isNull(_ column: String) -> RecordFilter {
        RecordFilter(column: column, op: .is, values: ["null"])
    }
}

/// A sort on a configured column.
public struct RecordOrder: Sendable, Hashable {
    package var column: String
    package var descending: Bool
    /// Where NULLs sort: `nil` is PostgreSQL's default, which PostgREST clients expect (last ascending, first
    /// descending).
    package var nullsFirst: Bool?

    package init(column: String, descending: Bool = false, nullsFirst: Bool? = nil) {
        self.column = column
        self.descending = descending
        self.nullsFirst = nullsFirst
    }

    /// Smallest first (NULLs first).
    public static func ascending(_ column: String) -> RecordOrder { RecordOrder(column: column) }
    /// Largest first (NULLs last).
    public static func descending(_ column: String) -> RecordOrder {
        RecordOrder(column: column, descending: true)
    }
}
