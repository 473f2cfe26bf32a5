internal import Logging
internal import NIOCore
package import PostgresNIO
package import SyncCore

/// One leased connection, used from one of ``PostgresStore``'s threads: each statement waits for its answer.
package struct PostgresSession {
    package let connection: PostgresConnection
    let logger: Logger

    /// A statement's rows, all of them, and how many rows it changed (its command tag's count).
    package struct Result {
        package var rows: [PostgresRandomAccessRow]
        package var affected: Int
    }

    /// Runs one statement with `binds` for `$1`, `$2`…
    @discardableResult
    package func query(_ sql: String, _ binds: [PostgresValue] = []) throws -> Result {
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds { value.append(to: &bindings) }
        return try query(PostgresQuery(unsafeSQL: sql, binds: bindings))
    }

    package func query(_ query: PostgresQuery) throws -> Result {
        let result = try connection.query(query, logger: logger).wait()
        return Result(rows: result.rows.map { $0.makeRandomAccess() }, affected: result.metadata.rows ?? 0)
    }

    /// The first column of the first row, when there is one and it is not NULL.
    package func scalar<T: PostgresDecodable>(_ type: T.Type, _ sql: String, _ binds: [PostgresValue] = []) throws
        -> T? where T._DecodableType == T
    {
        guard let row = try query(sql, binds).rows.first else { return nil }
        return try row[0].decode(T?.self)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    package func transaction<T>(_ isolation: String = "READ COMMITTED", _ body: () throws -> T) throws -> T {
        try query("BEGIN ISOLATION LEVEL \(isolation)")
        do {
            let result = try body()
            try query("COMMIT")
            return result
        } catch {
            _ = try? query("ROLLBACK")
            throw error
        }
    }
}

/// A value bound to a statement's `$n`.
package enum PostgresValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case bytes(ByteBuffer)
    /// A `text[]`, for `= ANY($n)` and `unnest($n)`.
    case texts([String])

    func append(to bindings: inout PostgresBindings) {
        switch self {
        case .null: bindings.appendNull()
        case .integer(let value): bindings.append(value)
        case .real(let value): bindings.append(value)
        case .text(let value): bindings.append(value)
        case .bytes(let value): bindings.append(value)
        case .texts(let value): bindings.append(value)
        }
    }
}

extension PostgresValue {
    package init(_ value: ColumnValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .text(let text): self = .text(text)
        }
    }

    /// `value` as a column of `type` holds it: PostgreSQL's columns take one type each, where SQLite's affinity took
    /// what came (an integer in a REAL column, say).
    package init(_ value: ColumnValue, as type: ColumnType) {
        switch (type, value) {
        case (_, .null): self = .null
        case (.real, .integer(let integer)): self = .real(Double(integer))
        case (.integer, .real(let real)), (.boolean, .real(let real)):
            self = Int64(exactly: real).map(PostgresValue.integer) ?? .null
        case (.integer, .text), (.boolean, .text), (.real, .text): self = .null
        case (.text, .integer), (.json, .integer), (.timestamp, .integer): self = .text(value.jsonLiteral)
        case (.text, .real), (.json, .real), (.timestamp, .real): self = .text(value.jsonLiteral)
        default: self.init(value)
        }
    }
}

extension PostgresValue {
    /// A cell as read back: integers, floating-point numbers, bytes and text (anything else as its text).
    init(cell: PostgresCell) {
        guard cell.bytes != nil else {
            self = .null
            return
        }
        switch cell.dataType {
        case .int8, .int4, .int2: self = (try? cell.decode(Int64.self)).map(PostgresValue.integer) ?? .null
        case .float8, .float4: self = (try? cell.decode(Double.self)).map(PostgresValue.real) ?? .null
        case .bytea: self = (try? cell.decode(ByteBuffer.self)).map(PostgresValue.bytes) ?? .null
        default: self = (try? cell.decode(String.self)).map(PostgresValue.text) ?? .null
        }
    }
}
