// How much of a query string the read API reads: every parameter is bounded where it is parsed, so that no request
// of a few hundred bytes asks for an answer, a statement or a loop of any size (issue 40).

/// The read API's bounds on query strings, each refused with a 400 naming the parameter and the bound. README's
/// read-API section lists them, and the OpenAPI document declares those a schema can say.
enum QueryLimits {
    /// The query string as sent, still percent-encoded: nginx's default buffer for a whole request line is 8 KiB.
    static let queryBytes = 8192
    /// One parameter's name or value once decoded, in Unicode scalars (what JSON Schema's `maxLength` counts).
    static let valueScalars = 4096
    /// Filters in one request. PostgreSQL and SQLite bind each value: 64 filters of ``inValues`` values stay under
    /// SQLite's 32,766 variables.
    static let filters = 64
    /// Items of `order`.
    static let orderItems = 32
    /// Values of one `in.(…)` list.
    static let inValues = 256
    /// The largest `limit` and `offset` (and the change feed's `limit`); `limit` is then capped at `max_rows`.
    /// Far below `Int.max`, so that `offset + limit` never overflows anywhere.
    static let count = 1_000_000_000

    /// The sentence of a refusal: the parameter, what it holds and the bound.
    static func tooMany(_ parameter: String, _ what: String, got: Int, limit: Int) -> ReadAPIError {
        .badParameter(parameter, "\(parameter) holds \(got) \(what); the read API takes at most \(limit).")
    }
}
