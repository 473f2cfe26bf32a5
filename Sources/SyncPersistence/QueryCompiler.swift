package import SyncDecoding
package import SyncModel
internal import SyncSQLite

/// SQL text and the values to bind to its placeholders, in order.
package struct CompiledSQL: Sendable, Hashable {
    package var sql: String
    package var arguments: [ColumnValue]

    package init(_ sql: String, _ arguments: [ColumnValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}

/// The SQL of every read of an endpoint's records, in a store's ``SQLDialect``: a page of a ``RecordQuery`` and its
/// count, one record by its key, a document, and the two halves of the change feed. The stores run what it writes
/// and read the rows; what a query means is decided here, once.
///
/// Column names come from the configuration (validated ``SQLIdentifier``s) and are quoted; every value a reader
/// wrote is bound.
package struct QueryCompiler: Sendable {
    package let dialect: SQLDialect
    package let endpoint: EndpointConfiguration

    package init(_ dialect: SQLDialect, endpoint: EndpointConfiguration) {
        self.dialect = dialect
        self.endpoint = endpoint
    }

    /// The store's instance id, part of every entity tag.
    package static let instanceSQL = "SELECT value FROM syncd_meta WHERE key = 'instance'"

    private var table: String { endpoint.name.quoted }

    /// A page of records — the configured columns then `_raw`, in the query's order then the key's — and the count
    /// of every record its filters match, whose arguments are the page's first ones.
    ///
    /// - Throws: ``StoreError`` for an unknown column or a value that does not fit its column.
    package func records(_ query: RecordQuery) throws -> (page: CompiledSQL, count: CompiledSQL) {
        var arguments: [ColumnValue] = []
        func parameter(_ value: ColumnValue) -> String {
            arguments.append(value)
            return dialect.placeholder(arguments.count)
        }
        let conditions = try query.filters.map { try condition($0, parameter) }
        var order = try query.order.map { order in
            let column = try RecordOperand.column(named: order.column, of: endpoint)
            // PostgreSQL's default, which PostgREST clients expect: NULLs sort as if larger than any value.
            let nulls = (order.nullsFirst ?? order.descending) ? " NULLS FIRST" : " NULLS LAST"
            return "\(dialect.compared(column)) \(order.descending ? "DESC" : "ASC")\(nulls)"
        }
        order += endpoint.primaryKey.map { dialect.compared(endpoint.columns[$0]) + " ASC" }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let count = CompiledSQL("SELECT count(*) FROM \(table)\(whereClause)", arguments)
        let selected = endpoint.columns.map { SQLIdentifier.quote($0.name) }.joined(separator: ", ")
        let limit = parameter(dialect.limit(query.limit))
        let offset = parameter(.integer(Int64(query.offset)))
        let page = CompiledSQL(
            "SELECT \(selected), \"_raw\" FROM \(table)\(whereClause) ORDER BY \(order.joined(separator: ", "))"
                + " LIMIT \(limit) OFFSET \(offset)",
            arguments)
        return (page, count)
    }

    /// One filter as a condition, its values bound through `parameter`.
    private func condition(_ filter: RecordFilter, _ parameter: (ColumnValue) -> String) throws -> String {
        let column = try RecordOperand.column(named: filter.column, of: endpoint)
        let first = filter.values.first ?? ""
        var condition: String
        switch filter.op {
        case .eq, .neq, .gt, .gte, .lt, .lte:
            let value = try RecordOperand.value(first, for: column, of: endpoint)
            condition = "\(dialect.compared(column)) \(filter.op.comparison) \(parameter(value))"
        case .like, .ilike:
            let caseSensitive = filter.op == .like
            let pattern = parameter(dialect.pattern(first, caseSensitive: caseSensitive))
            condition = dialect.matching(column, pattern: pattern, caseSensitive: caseSensitive)
        case .in:
            let placeholders = try filter.values.map {
                parameter(try RecordOperand.value($0, for: column, of: endpoint))
            }
            condition = dialect.isIn(dialect.compared(column), placeholders: placeholders)
        case .is:
            switch first.lowercased() {
            case "null": condition = "\(SQLIdentifier.quote(column.name)) IS NULL"
            case "true": condition = dialect.isBoolean(true, on: column)
            case "false": condition = dialect.isBoolean(false, on: column)
            default:
                throw StoreError.badValue(
                    first, column: column.name, endpoint: endpoint.name.name, expected: "null, true or false")
            }
        }
        return filter.negated ? "NOT (\(condition))" : condition
    }
}

extension QueryCompiler {
    /// One record by its key — `_raw`, `_version`, `_changed_at` — from one value per key column, as text (`3`, or
    /// `3,eu` for a composite key).
    ///
    /// - Throws: ``StoreError`` (`badKey`) for a key of the wrong length or a value that does not fit its column.
    package func record(key: [String]) throws -> CompiledSQL {
        let keyColumns = endpoint.primaryKey.map { endpoint.columns[$0] }
        let arguments = try RecordOperand.key(key, of: endpoint)
        let predicate = keyColumns.enumerated().map {
            "\(SQLIdentifier.quote($1.name)) = \(dialect.placeholder($0 + 1))"
        }
        return CompiledSQL(
            "SELECT \"_raw\", \"_version\", \"_changed_at\" FROM \(table) WHERE \(predicate.joined(separator: " AND "))",
            arguments)
    }

    /// A document endpoint's stored body: `body`, `content_type`, `version`, `changed_at`.
    package var document: CompiledSQL {
        CompiledSQL(
            "SELECT body, content_type, version, changed_at FROM syncd_documents WHERE endpoint = \(dialect.placeholder(1))",
            [.text(endpoint.name.name)])
    }

    /// The two halves of the change feed after version `since` (or, when `after` is given, after that position of
    /// an earlier capped answer), each in the feed's order (``ChangePosition``) along an index:
    ///
    /// - `rows`: `_raw`, whether it was first stored after `since`, `_version`, the row's order within its version,
    ///   then the key as JSON (``SQLDialect/keyJSON(_:)``) or, where the dialect writes none, the key's columns.
    /// - `deletions`: the tombstone's key (JSON), version and order within its version.
    package func changes(since: Int64, after: ChangePosition?) -> (rows: CompiledSQL, deletions: CompiledSQL) {
        let p = dialect.placeholder
        let rowsAfter =
            after == nil
            ? "\"_version\" > \(p(1))"
            : "\"_version\" >= \(p(2)) AND (\"_version\" > \(p(2)) OR (\(p(3)) = 0 AND \(dialect.rowOrder) > \(p(4))))"
        let deletionsAfter =
            after == nil
            ? "version > \(p(1))"
            : "version >= \(p(2)) AND (version > \(p(2)) OR \(p(3)) = 0 OR \(dialect.tombstoneOrder) > \(p(4)))"
        let arguments: [ColumnValue] = Array(
            [
                .integer(since), .integer(after?.version ?? 0), .integer(after?.isDeletion == true ? 1 : 0),
                .integer(after?.rowid ?? 0),
            ].prefix(after == nil ? 1 : 4))
        let keyNames = endpoint.primaryKey.map { endpoint.columns[$0].name }
        let key = dialect.keyJSON(keyNames) ?? keyNames.map(SQLIdentifier.quote).joined(separator: ", ")
        let rows = CompiledSQL(
            """
            SELECT "_raw", "_created_version" > \(p(1)), "_version", \(dialect.rowOrder), \(key) FROM \(table)
            WHERE \(rowsAfter) ORDER BY "_version", \(dialect.rowOrder)
            """, arguments)
        let deletions = CompiledSQL(
            """
            SELECT key, version, \(dialect.tombstoneOrder) FROM syncd_tombstones
            WHERE endpoint = \(p(arguments.count + 1)) AND \(deletionsAfter) ORDER BY version, \(dialect.tombstoneOrder)
            """, arguments + [.text(endpoint.name.name)])
        return (rows, deletions)
    }
}
