package import SyncDecoding
import SyncSupport

extension SyncEndpoint {
    /// How an upsert-only endpoint asks only for what changed
    /// (`incremental = { param = "updated_since", column = "updated_at" }` in syncd.toml).
    ///
    /// The highest value of `column` applied so far is sent as the query parameter `param` (`initial` before the
    /// first rows; less `lag` for a timestamp column, so that a window is read again and late writes are caught).
    /// A record whose `deletedFlag` is true is deleted and leaves a tombstone. It needs
    /// ``SyncEndpoint/upsertOnly`` (`mode = "incremental"`).
    public struct Incremental: Sendable, Hashable {
        /// The query parameter that carries the cursor.
        public var param: String
        /// The cursor column: one of the endpoint's columns.
        public var column: String
        /// The value sent before any row was stored. The default is none: the first request has no parameter.
        public var initial: String?
        /// Subtracted from a timestamp cursor before it is sent: 0...30 days. The default is none.
        public var lag: Duration?
        /// A JSON path to a boolean in each record; true deletes the record's row. The default is none.
        public var deletedFlag: String?

        /// The cursor `column`, sent as `param`.
        public init(
            param: String, column: String, initial: String? = nil, lag: Duration? = nil, deletedFlag: String? = nil
        ) {
            self.param = param
            self.column = column
            self.initial = initial
            self.lag = lag
            self.deletedFlag = deletedFlag
        }

        /// What is wrong with the values themselves, before the endpoint's columns are known. The one set of rules
        /// for syncd.toml and Swift.
        package var problems: [OptionProblem] {
            var problems: [OptionProblem] = []
            if param.isEmpty || HTTPHeaderSyntax.hasForbiddenByte(param) {
                problems.append(.init(key: "param", "incremental: param must be the name of a query parameter"))
            }
            if column.isEmpty {
                problems.append(.init(key: "column", "incremental: column must name one of [endpoint.columns]"))
            }
            if initial?.isEmpty == true {
                problems.append(.init(key: "initial", "incremental: initial must be a non-empty string"))
            }
            if let lag,
                let problem = EndpointRules.duration("incremental: lag", lag, in: ConfigurationBounds.incrementalLag)
            {
                problems.append(.init(key: "lag", problem))
            }
            if let deletedFlag {
                do {
                    _ = try JSONPath(parsing: deletedFlag)
                } catch {
                    problems.append(.init(key: "deleted_flag", "incremental: deleted_flag: \(error)"))
                }
            }
            return problems
        }

        /// Checks every value against the endpoint's columns and mode, and builds what a sync sends, or adds to
        /// `problems` why not.
        package func compile(columns: [ColumnSpec], mode: SyncMode, problems: inout [OptionProblem])
            -> IncrementalConfiguration?
        {
            let found = self.problems
            guard found.isEmpty else {
                problems += found
                return nil
            }
            let flag = deletedFlag.flatMap { try? JSONPath(parsing: $0) }
            guard mode == .incremental else {
                problems.append(.init(key: nil, "incremental needs mode = \"incremental\""))
                return nil
            }
            guard let index = columns.firstIndex(where: { $0.name == column }) else {
                problems.append(.init(key: nil, "incremental: column \"\(column)\" is not in [endpoint.columns]"))
                return nil
            }
            if lag != nil, columns[index].type != .timestamp {
                problems.append(
                    .init(
                        key: nil, "incremental: lag needs a timestamp column; \"\(column)\" is \(columns[index].type)"))
                return nil
            }
            return IncrementalConfiguration(
                param: param, column: index, initial: initial, lag: lag, deletedFlag: flag)
        }
    }
}
