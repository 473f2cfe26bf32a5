package import SyncCore

extension PostgRESTQuery {
    /// A records request's query string as the records route reads it: parsed, checked against the endpoint's
    /// columns, its limit capped at `maxRows` (PostgREST's db-max-rows). Also the entry point of the `query` fuzz
    /// target (Fuzz/).
    ///
    /// - Throws: ``ReadAPIError/badParameter(_:_:)`` naming the parameter that is malformed or names a column the
    ///   endpoint does not have.
    package init(parsing queryText: String, for endpoint: SyncCache.Endpoint, maxRows: Int) throws(ReadAPIError) {
        try self.init(QueryString(Substring(queryText)))
        try validate(for: endpoint)
        query.limit = min(query.limit ?? maxRows, maxRows)
    }

    /// Only configured columns can be filtered, ordered or selected: the parameter that names another is a 400.
    private func validate(for endpoint: SyncCache.Endpoint) throws(ReadAPIError) {
        let known = Set(endpoint.columns.map(\.name))
        func check(_ column: String, parameter: String) throws(ReadAPIError) {
            guard known.contains(column) else {
                throw .unknownColumn(
                    column, parameter: parameter, endpoint: endpoint.name, known: endpoint.columns.map(\.name))
            }
        }
        for filter in query.filters {
            try check(filter.column, parameter: filter.column)
            try checkNumbers(filter, endpoint)
        }
        for order in query.order { try check(order.column, parameter: "order") }
        for column in select ?? [] { try check(column, parameter: "select") }
    }

    /// A real column's value is a decimal number, as the OpenAPI document says: `Double(_:)` alone would also read
    /// `inf`, `nan` and hexadecimal.
    private func checkNumbers(_ filter: RecordFilter, _ endpoint: SyncCache.Endpoint) throws(ReadAPIError) {
        guard endpoint.columns.first(where: { $0.name == filter.column })?.type == .real,
            filter.isComparison
        else { return }
        for value in filter.values where !QueryGrammar.isReal(value) {
            throw .badParameter(
                filter.column,
                "\(filter.column) is a real column: its filter takes decimal numbers like 1.5 or -2e3, and "
                    + "\"\(value)\" is not one.")
        }
    }
}
