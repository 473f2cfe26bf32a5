internal import FoundationEssentials
internal import Logging
internal import NIOCore
internal import PostgresNIO
package import SyncCore

extension PostgresReadStorage {
    /// `sql` read as PostgreSQL's statements, when each may run; else why not, before anything is sent.
    ///
    /// - Throws: ``SQLScriptError/failed(_:)`` for a script that cannot be read, ``SQLScriptError/refused(_:)`` for a
    ///   statement the guard refuses.
    static func script(_ sql: String) throws(SQLScriptError) -> PostgresScript {
        let script: PostgresScript
        do {
            script = try PostgresScript(sql)
        } catch {
            throw .failed("the SQL failed: \(error)")
        }
        if let refusal = script.refusal { throw .refused(refusal) }
        return script
    }

    /// `syncd sql` on PostgreSQL: the statements run in one `REPEATABLE READ READ ONLY` transaction that is rolled
    /// back, on one connection of the pool, once the server's plan of each has passed the guard
    /// (``planRefusal(_:_:_:)``). A statement that would write anyway (a data-modifying `WITH`,
    /// `SELECT … INTO`, `nextval()`) fails with SQLSTATE 25006, which is reported as a refusal, as SQLite's
    /// authorizer's is.
    ///
    /// Values come back in the server's binary format, which says what each column is: integers, floating-point
    /// numbers, booleans, text, names, JSON, UUIDs and bytes are read as such; for a column of any other type
    /// (numeric, dates and times, intervals, arrays…) the statement runs again in the same snapshot with that column
    /// cast to text, so that it reads as psql shows it.
    package func runScript(_ sql: String) async throws -> [SQLResult] {
        let script = try Self.script(sql)
        let logger = store.logger
        return try await store.client.withConnection { connection in
            _ = try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            do {
                if let refusal = try await Self.planRefusal(script, connection, logger) {
                    throw SQLScriptError.refused(refusal)
                }
                var results: [SQLResult] = []
                for statement in script.statements {
                    results.append(try await Self.run(statement, connection, logger))
                }
                _ = try await connection.query("ROLLBACK", logger: logger)
                return results
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw Self.scriptError(error)
            }
        }
    }

    private static func run(_ statement: PostgresScript.Command, _ connection: PostgresConnection, _ logger: Logger)
        async throws -> SQLResult
    {
        let rows = try await connection.query(PostgresQuery(unsafeSQL: statement.text), logger: logger)
        let columns = Array(rows.columns)
        let readable = columns.allSatisfy { Self.readsAsIs($0.dataType) }
        guard !readable, !columns.isEmpty, statement.firstWord != "show", statement.firstWord != "explain" else {
            return SQLResult(columns: columns.map(\.name), rows: try await Self.values(rows))
        }
        for try await _ in rows {}
        // Again, in the same snapshot, with the columns of other types as text.
        let names = columns.indices.map { "c\($0 + 1)" }
        let select = zip(columns, names).map { column, name in
            Self.readsAsIs(column.dataType) ? name : "\(name)::text"
        }
        let again = try await connection.query(
            PostgresQuery(
                unsafeSQL:
                    "SELECT \(select.joined(separator: ", ")) FROM (\n\(statement.text)\n) AS syncd_sql(\(names.joined(separator: ", ")))"
            ), logger: logger)
        return SQLResult(columns: columns.map(\.name), rows: try await Self.values(again))
    }

    /// The types read as they come.
    private static func readsAsIs(_ type: PostgresDataType) -> Bool {
        switch type {
        case .int2, .int4, .int8, .float4, .float8, .bool, .text, .varchar, .bpchar, .name, .bytea, .json, .jsonb,
            .uuid:
            true
        default:
            false
        }
    }

    private static func values(_ rows: PostgresRowSequence) async throws -> [[SQLCell]] {
        var values: [[SQLCell]] = []
        for try await row in rows {
            values.append(row.map(Self.value))
        }
        return values
    }

    private static func value(_ cell: PostgresCell) -> SQLCell {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8: return (try? cell.decode(Int64.self)).map(SQLCell.integer) ?? .null
        case .float4, .float8: return (try? cell.decode(Double.self)).map(SQLCell.real) ?? .null
        case .bool: return (try? cell.decode(Bool.self)).map { .text($0 ? "true" : "false") } ?? .null
        case .bytea: return (try? cell.decode(ByteBuffer.self)).map { .blob(Array($0.readableBytesView)) } ?? .null
        default: return (try? cell.decode(String.self)).map(SQLCell.text) ?? .null
        }
    }

    /// The server's refusal of a write (25006) as syncd's; any other error as its message.
    private static func scriptError(_ error: any Error) -> SQLScriptError {
        if let error = error as? SQLScriptError { return error }
        guard let error = error as? PSQLError else { return .failed("\(error)") }
        let message = error.serverInfo?[.message] ?? "\(error.code)"
        if error.serverInfo?[.sqlState] == "25006" {
            return .refused("syncd sql only reads: \(message)")
        }
        return .failed("the SQL failed: \(message)")
    }
}
