internal import CSQLite
internal import SyncSQLite

/// `syncd sql` on an SQLite file: the script runs on a connection of its own, opened read-only, with `query_only` and
/// an authorizer that refuses whatever would write, change the connection, ATTACH a file or call a function outside
/// syncd's list — so that nothing it holds reaches the pool's connections, which other reads share.
extension SQLiteReadStorage {
    package func runScript(_ sql: String) async throws -> [SQLResult] {
        let path = pool.path
        // On a read thread of the pool (off the cooperative threads), with a connection of the script's own.
        return try await pool.read { _ in
            let database: Database
            do {
                database = try Database(path: path, mode: .readOnly)
                try database.restrictToReading()
            } catch {
                throw SQLScriptError.failed("\(path) cannot be read: \(error)")
            }
            return try Self.run(sql, on: database)
        }
    }

    /// Each statement's rows, in order; a statement that returned none has no result (as the sqlite3 shell prints
    /// nothing for it).
    static func run(_ sql: String, on database: Database) throws(SQLScriptError) -> [SQLResult] {
        var results: [SQLResult] = []
        do {
            try database.forEachStatement(sql) { statement, first in
                if first {
                    results.append(
                        SQLResult(columns: (0..<statement.columnCount).map(statement.columnName(at:)), rows: []))
                }
                let row = (0..<statement.columnCount).map { SQLCell(statement.value(at: $0)) }
                results[results.count - 1].rows.append(row)
            }
        } catch let error as SQLiteError {
            if let function = database.refusedFunction(error) {
                throw .refused(
                    "syncd sql allows only the functions the guide lists (docs/explanation/security.md): \(function)() is not one"
                )
            }
            if Database.isNotAuthorized(error) || error.resultCode == SQLITE_READONLY {
                throw .refused("syncd sql only reads: \"\(error.sql ?? sql)\" would write or change the connection")
            }
            throw .failed("the SQL failed: \(error.message)")
        } catch {
            throw .failed("the SQL failed: \(error)")
        }
        return results
    }
}
