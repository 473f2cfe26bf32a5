/// A read of an endpoint's records: filters on configured columns, an order, a page.
///
/// The operators are PostgREST's, which the read API speaks; the CLI's `--where COL=VALUE` is `eq`.
package struct RecordQuery: Sendable, Hashable {
    package struct Filter: Sendable, Hashable {
        package enum Operator: String, Sendable, Hashable, CaseIterable {
            case eq, neq, gt, gte, lt, lte, like, ilike, `in`, `is`
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
    }

    package struct Order: Sendable, Hashable {
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
    }

    package var filters: [Filter]
    /// Empty: by primary key.
    package var order: [Order]
    package var limit: Int?
    package var offset: Int

    package init(filters: [Filter] = [], order: [Order] = [], limit: Int? = nil, offset: Int = 0) {
        self.filters = filters
        self.order = order
        self.limit = limit
        self.offset = offset
    }
}
