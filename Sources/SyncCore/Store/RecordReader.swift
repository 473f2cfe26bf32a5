/// Reads an endpoint's cached records, with the entity tags that let readers revalidate for free.
///
/// The CLI and the read API both read through this type; it needs only a read-only connection. Each read runs
/// in one read transaction, so what it returns — rows, versions and tags — belongs to one committed sync.
package struct RecordReader {
    package let database: Database
    package let endpoint: EndpointConfiguration

    package init(database: Database, endpoint: EndpointConfiguration) {
        self.database = database
        self.endpoint = endpoint
    }

    /// The database's instance id, part of every entity tag.
    package func instance() throws -> String {
        try Self.instance(of: database)
    }

    /// A database's instance id, part of every entity tag.
    package static func instance(of database: Database) throws -> String {
        try database.scalar("SELECT value FROM syncd_meta WHERE key = 'instance'")?.textRepresentation ?? "0"
    }

    func state() throws -> EndpointState {
        guard let state = try EndpointState.named(endpoint.name.name, database),
            try endpoint.isDocument || database.tableExists(endpoint.name.name)
        else {
            throw StoreError.notSynced(endpoint.name.name)
        }
        return state
    }

    /// The records a query selects.
    ///
    /// - Throws: ``StoreError`` for an unknown column, a value that does not fit its column, or an endpoint
    ///   not synced yet; ``SQLiteError``.
    /// - Parameters:
    ///   - countingAll: Also count every record the filters match (``Page/total``), in the same snapshot.
    ///   - maxBytes: Stop once the records read hold this many bytes of JSON (at least one record is read): the
    ///     page is then shorter than `query.limit`.
    package func records(_ query: RecordQuery, countingAll: Bool = false, maxBytes: Int = .max) throws -> RecordPage {
        guard !endpoint.isDocument else { throw StoreError.notCollection(endpoint.name.name) }
        return try database.transaction(.deferred) {
            try readRecords(query, countingAll: countingAll, maxBytes: maxBytes)
        }
    }

    private func readRecords(_ query: RecordQuery, countingAll: Bool, maxBytes: Int) throws -> RecordPage {
        let state = try state()
        let table = RecordTable(endpoint)
        var conditions: [String] = []
        var arguments: [SQLiteValue] = []
        for filter in query.filters {
            let column = try Self.column(named: filter.column, of: endpoint)
            let name = SQLIdentifier.quote(column.name)
            var condition: String
            switch filter.op {
            case .eq, .neq, .gt, .gte, .lt, .lte:
                condition = "\(name) \(filter.op.comparison) ?"
                arguments.append(SQLiteValue(try Self.operand(filter.values.first ?? "", for: column, of: endpoint)))
            case .like:
                condition = "\(name) GLOB ?"
                arguments.append(.text(Self.glob(filter.values.first ?? "")))
            case .ilike:
                condition = "\(name) LIKE ? ESCAPE '\\'"
                arguments.append(.text(Self.like(filter.values.first ?? "")))
            case .in:
                condition = "\(name) IN (\(Array(repeating: "?", count: filter.values.count).joined(separator: ", ")))"
                for text in filter.values {
                    arguments.append(SQLiteValue(try Self.operand(text, for: column, of: endpoint)))
                }
            case .is:
                switch filter.values.first?.lowercased() {
                case "null": condition = "\(name) IS NULL"
                case "true": condition = "\(name) IS 1"
                case "false": condition = "\(name) IS 0"
                default:
                    throw StoreError.badValue(
                        filter.values.first ?? "", column: column.name, endpoint: endpoint.name.name,
                        expected: "null, true or false")
                }
            }
            if filter.negated { condition = "NOT (\(condition))" }
            conditions.append(condition)
        }
        var order = try query.order.map { order in
            // PostgreSQL's default, which PostgREST clients expect: NULLs sort as if larger than any value.
            let nulls = (order.nullsFirst ?? order.descending) ? " NULLS FIRST" : " NULLS LAST"
            return
                "\(SQLIdentifier.quote(try Self.column(named: order.column, of: endpoint).name)) \(order.descending ? "DESC" : "ASC")\(nulls)"
        }
        order += table.keyNames.map { "\(SQLIdentifier.quote($0)) ASC" }
        let selected = endpoint.columns.map { SQLIdentifier.quote($0.name) }.joined(separator: ", ")
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        var total: Int?
        if countingAll {
            total = Int(
                try database.scalar("SELECT count(*) FROM \(table.quotedName)\(whereClause)", arguments)?
                    .textRepresentation.flatMap { Int($0) } ?? 0)
        }
        var sql = "SELECT \(selected), \"_raw\" FROM \(table.quotedName)" + whereClause
        sql += " ORDER BY " + order.joined(separator: ", ")
        sql += " LIMIT ? OFFSET ?"
        arguments.append(.integer(Int64(query.limit ?? -1)))
        arguments.append(.integer(Int64(query.offset)))
        let statement = try database.makeStatement(sql)
        try statement.bind(arguments)
        var rows: [[ColumnValue]] = []
        var raws: [String] = []
        let count = endpoint.columns.count
        var bytes = 0
        while bytes < maxBytes, try statement.step() {
            rows.append((0..<count).map { ColumnValue(statement.value(at: $0)) })
            let raw = statement.text(at: count) ?? "null"
            bytes += raw.utf8.count
            raws.append(raw)
        }
        return RecordPage(
            columns: endpoint.columns.map(\.name), rows: rows, raws: raws,
            etag: EntityTag.make(instance: try instance(), version: state.version), version: state.version,
            changedAt: state.changedAt, total: total
        )
    }

    /// One record by its key: one value per key column, as text (`3`, or `3,eu` for a composite key).
    ///
    /// - Returns: The record, or `nil` when no record has that key.
    package func record(key: [String]) throws -> StoredRecord? {
        guard !endpoint.isDocument else { throw StoreError.notCollection(endpoint.name.name) }
        return try database.transaction(.deferred) { try readRecord(key: key) }
    }

    private func readRecord(key: [String]) throws -> StoredRecord? {
        let state = try state()
        let table = RecordTable(endpoint)
        let keyColumns = endpoint.primaryKey.map { endpoint.columns[$0] }
        guard key.count == keyColumns.count else {
            throw StoreError.badKey(
                key.joined(separator: ","), endpoint: endpoint.name.name,
                expected: "\(keyColumns.count) values separated by commas (\(table.keyNames.joined(separator: ",")))")
        }
        let arguments = try zip(key, keyColumns).map { text, column in
            SQLiteValue(try Self.operand(text, for: column, of: endpoint, isKey: true))
        }
        let rows = try database.rows(
            "SELECT \"_raw\", \"_version\", \"_changed_at\" FROM \(table.quotedName) WHERE \(table.keyPredicate)",
            arguments)
        guard let row = rows.first, let raw = row.text("_raw"), let version = row.integer("_version") else {
            return nil
        }
        return StoredRecord(
            raw: raw, etag: EntityTag.make(instance: try instance(), version: version), version: version,
            changedAt: row.text("_changed_at"), endpointVersion: state.version)
    }

    /// A document endpoint's body, or `nil` before it was first fetched.
    package func document() throws -> StoredDocument? {
        guard endpoint.isDocument else { throw StoreError.notDocument(endpoint.name.name) }
        return try database.transaction(.deferred) { try readDocument() }
    }

    private func readDocument() throws -> StoredDocument? {
        let rows = try database.rows(
            "SELECT body, content_type, version, changed_at FROM syncd_documents WHERE endpoint = ?",
            [.text(endpoint.name.name)])
        guard let row = rows.first, let version = row.integer("version") else { return nil }
        let body: [UInt8]
        switch row["body"] {
        case .blob(let bytes): body = bytes
        case .text(let text): body = Array(text.utf8)
        default: body = []
        }
        return StoredDocument(
            body: body, contentType: row.text("content_type"),
            etag: EntityTag.make(instance: try instance(), version: version), version: version,
            changedAt: row.text("changed_at"),
            endpointVersion: try EndpointState.named(endpoint.name.name, database)?.version ?? version)
    }

    /// The configured column a reader names.
    ///
    /// - Throws: ``StoreError/unknownColumn(_:endpoint:known:)``.
    package static func column(named name: String, of endpoint: EndpointConfiguration) throws -> ColumnSpec {
        guard let column = endpoint.columns.first(where: { $0.name == name }) else {
            throw StoreError.unknownColumn(name, endpoint: endpoint.name.name, known: endpoint.columns.map(\.name))
        }
        return column
    }

    /// A value as written by a reader (a filter's operand, a key in a URL), converted as the column stores it: an
    /// integer, a boolean's 1 or 0, a number, a timestamp at its stored width, or text. Every store binds it.
    ///
    /// - Parameter isKey: Whether the text is part of a record's key (`get`, `/records/{id}`) rather than a filter's
    ///   value; the message says which.
    package static func operand(
        _ text: String, for column: ColumnSpec, of endpoint: EndpointConfiguration, isKey: Bool = false
    ) throws -> ColumnValue {
        func invalid(_ expected: String) -> StoreError {
            isKey
                ? .badKey(text, endpoint: endpoint.name.name, expected: "\(expected) for \(column.name)")
                : .badValue(text, column: column.name, endpoint: endpoint.name.name, expected: expected)
        }
        switch column.type {
        case .integer:
            guard let integer = Int64(text) else {
                throw invalid("an integer")
            }
            return .integer(integer)
        case .boolean:
            switch text.lowercased() {
            case "true", "1": return .integer(1)
            case "false", "0": return .integer(0)
            default:
                throw invalid("true or false")
            }
        case .real:
            guard let real = Double(text) else {
                throw invalid("a number")
            }
            return .real(real)
        case .timestamp:
            // Stored at one width (``RFC3339Timestamp/text``), so any form a reader writes is brought to it first.
            guard let stored = RFC3339Timestamp.storedForm(ofOperand: text) else {
                throw StoreError.badKey(
                    text, endpoint: endpoint.name.name,
                    expected: "an RFC 3339 timestamp or Unix seconds for \(column.name)")
            }
            return .text(stored)
        case .text, .json:
            return .text(text)
        }
    }

    /// PostgREST's `like` pattern, case-sensitive, as a GLOB: `*` or `%` for any run of characters, `_` for one
    /// (PostgreSQL's LIKE, with PostgREST's `*` alias), a backslash for the next character as itself; other GLOB
    /// characters escaped.
    static func glob(_ pattern: String) -> String {
        var result = ""
        var escaped = false
        for character in pattern {
            switch character {
            case _ where escaped:
                escaped = false
                result += "*?[]".contains(character) ? "[\(character)]" : String(character)
            case "\\": escaped = true
            case "*", "%": result.append("*")
            case "_": result.append("?")
            case "?", "[", "]": result += "[\(character)]"
            default: result.append(character)
            }
        }
        if escaped { result.append("\\") }  // a trailing backslash stands for itself
        return result
    }

    /// PostgREST's `ilike` pattern as an SQL LIKE with `\` as its escape (case-insensitive for ASCII): `*` or `%` for
    /// any run of characters, `_` for one, a backslash for the next character as itself.
    package static func like(_ pattern: String) -> String {
        var result = ""
        var escaped = false
        for character in pattern {
            switch character {
            case _ where escaped:
                escaped = false
                result += "%_\\".contains(character) ? "\\\(character)" : String(character)
            case "\\": escaped = true
            case "*": result.append("%")
            default: result.append(character)
            }
        }
        if escaped { result += "\\\\" }  // a trailing backslash stands for itself
        return result
    }
}
