/// The rows one statement of `syncd sql` returned, with its columns' names.
package struct SQLResult: Sendable, Equatable {
    package var columns: [String]
    package var rows: [[SQLiteValue]]

    package init(columns: [String], rows: [[SQLiteValue]]) {
        self.columns = columns
        self.rows = rows
    }
}

/// Why a script of `syncd sql` did not run, in one sentence.
package enum SQLScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// It would write, change the connection or call a refused function: nothing of it ran (exit 2).
    case refused(String)
    /// The server refused or failed it (exit 1).
    case failed(String)

    package var description: String {
        switch self {
        case .refused(let sentence), .failed(let sentence): sentence
        }
    }
}

extension ReadStorage {
    /// Storage with no reader of scripts of its own: SQLite's, which `syncd sql` reads itself (with an authorizer).
    package func runScript(_ script: PostgresScript) async throws -> [SQLResult] {
        throw SQLScriptError.failed("this storage runs no scripts: syncd sql reads SQLite files itself")
    }
}
