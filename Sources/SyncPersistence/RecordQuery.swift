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

    /// The configured column the filter reads.
    public package(set) var column: String
    package var op: Operator
    /// The operand as written: converted to the column's type when the query runs. For `in`, the list;
    /// for `is`, `null`, `true` or `false`.
    public package(set) var values: [String]
    /// Whether the filter holds where the condition does not (PostgREST's `not.`).
    public package(set) var negated: Bool

    /// PostgREST's name of the filter's operator: `eq`, `neq`, `gt`, `gte`, `lt`, `lte`, `like`, `ilike`, `in` or
    /// `is` (``operatorNames``).
    public var operatorName: String { op.rawValue }

    /// Whether the operator compares the column's values with the operands, read as the column's type (`eq`, `neq`,
    /// `gt`, `gte`, `lt`, `lte`, `in`), rather than matching a pattern (`like`, `ilike`) or testing `is`.
    public var isComparison: Bool {
        switch op {
        case .eq, .neq, .gt, .gte, .lt, .lte, .in: true
        case .like, .ilike, .is: false
        }
    }

    /// The operators a filter takes, by PostgREST's names, in the order a message lists them.
    public static let operatorNames: [String] = Operator.allCases.map(\.rawValue)

    /// A filter as PostgREST writes it, `column=[not.]OPERATOR.VALUE`: the operator by its name (``operatorNames``),
    /// the operand as written. Nil for an operator of another name.
    ///
    /// - Parameters:
    ///   - values: One value, or for `in` the list; for `is`, `null`, `true` or `false`.
    ///   - negated: PostgREST's `not.`: the filter holds where the condition does not.
    public init?(column: String, operatorName: String, values: [String], negated: Bool = false) {
        guard let op = Operator(rawValue: operatorName) else { return nil }
        self.init(column: column, op: op, values: values, negated: negated)
    }

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
    /// The configured column sorted by.
    public var column: String
    /// Largest first rather than smallest first.
    public var descending: Bool
    /// Where NULLs sort: `nil` is PostgreSQL's default, which PostgREST clients expect (last ascending, first
    /// descending).
    public var nullsFirst: Bool?

    /// A sort on `column`, as PostgREST's `order=col[.asc|.desc][.nullsfirst|.nullslast]` says it.
    ///
    /// - Parameters:
    ///   - descending: Largest first. The default is smallest first.
    ///   - nullsFirst: Whether NULLs sort first; nil (the default) sorts them last ascending and first descending.
    public init(column: String, descending: Bool = false, nullsFirst: Bool? = nil) {
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
