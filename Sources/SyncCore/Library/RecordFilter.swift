/// A condition on a configured column, as the read API's PostgREST filters say it.
public struct RecordFilter: Sendable, Hashable {
    let filter: RecordQuery.Filter

    /// `column = value` (the value is converted to the column's type).
    public static func equal(_ column: String, _ value: String) -> RecordFilter {
        RecordFilter(filter: .init(column: column, op: .eq, values: [value]))
    }

    /// `column <> value`.
    public static func notEqual(_ column: String, _ value: String) -> RecordFilter {
        RecordFilter(filter: .init(column: column, op: .neq, values: [value]))
    }

    /// `column > value`.
    public static func greaterThan(_ column: String, _ value: String) -> RecordFilter {
        RecordFilter(filter: .init(column: column, op: .gt, values: [value]))
    }

    /// `column < value`.
    public static func lessThan(_ column: String, _ value: String) -> RecordFilter {
        RecordFilter(filter: .init(column: column, op: .lt, values: [value]))
    }

    /// The column's value is one of `values`.
    public static func oneOf(_ column: String, _ values: [String]) -> RecordFilter {
        RecordFilter(filter: .init(column: column, op: .in, values: values))
    }

    /// PostgREST's `like`: `*` matches any run of characters; case-sensitive.
    public static func like(_ column: String, _ pattern: String) -> RecordFilter {
        RecordFilter(filter: .init(column: column, op: .like, values: [pattern]))
    }

    /// The column is NULL.
    public static func isNull(_ column: String) -> RecordFilter {
        RecordFilter(filter: .init(column: column, op: .is, values: ["null"]))
    }
}

/// A sort on a configured column.
public struct RecordOrder: Sendable, Hashable {
    let order: RecordQuery.Order

    /// Smallest first (NULLs first).
    public static func ascending(_ column: String) -> RecordOrder { RecordOrder(order: .init(column: column)) }
    /// Largest first (NULLs last).
    public static func descending(_ column: String) -> RecordOrder {
        RecordOrder(order: .init(column: column, descending: true))
    }
}
