/// `incremental` as read from the file, before the endpoint's columns are known.
struct IncrementalSetting {
    var param: String
    var columnName: String
    var initial: String?
    var lag: Duration?
    var deletedFlag: JSONPath?
    /// Where it was written, for the problems found once the columns are known.
    var field: ConfigurationParser.Field
}

extension ConfigurationParser {
    private static let incrementalKeys: Set<String> = ["param", "column", "initial", "lag", "deleted_flag"]

    /// `incremental = { param = "updated_since", column = "updated_at", initial = "…", lag = "5m" }`.
    mutating func incremental(_ field: Field) -> IncrementalSetting? {
        guard let table = field.value.table else {
            report(
                #"incremental must be an inline table such as { param = "updated_since", column = "updated_at" }"#,
                at: field)
            return nil
        }
        let problemCount = problems.count
        var param: String?
        var column: String?
        var initial: String?
        var lag: Duration?
        var deletedFlag: JSONPath?
        for option in fields(of: table, in: Scope(path: field.path, context: field.scope.context)) {
            switch option.key {
            case "param":
                param = string(option, what: "incremental: param must be the name of a query parameter")
            case "column":
                column = string(option, what: "incremental: column must name one of [endpoint.columns]")
            case "initial":
                initial = string(option, what: "incremental: initial must be a non-empty string")
            case "lag":
                if let text = option.value.string, let duration = ConfigDuration.parse(text) {
                    let range = ConfigurationBounds.incrementalLag
                    if range.contains(duration) {
                        lag = duration
                    } else {
                        report("incremental: lag must be \(ConfigurationBounds.describe(range))", at: option)
                    }
                } else {
                    report("incremental: lag must be a duration such as \"5m\"", at: option)
                }
            case "deleted_flag":
                deletedFlag = jsonPath(option, prefix: "incremental: ")
            default:
                report("incremental: unknown key \"\(option.key)\"", at: option)
            }
        }
        for key in ["param", "column"] where table[key] == nil {
            report("incremental: missing \"\(key)\"", at: field)
        }
        guard problems.count == problemCount, let param, let column else { return nil }
        return IncrementalSetting(
            param: param, columnName: column, initial: initial, lag: lag, deletedFlag: deletedFlag, field: field)
    }

    /// The checks that need the endpoint's columns and mode.
    mutating func resolve(_ setting: IncrementalSetting, columns: [ColumnSpec], mode: SyncMode)
        -> IncrementalConfiguration?
    {
        guard mode == .incremental else {
            report("incremental needs mode = \"incremental\"", at: setting.field)
            return nil
        }
        guard let column = columns.firstIndex(where: { $0.name == setting.columnName }) else {
            report("incremental: column \"\(setting.columnName)\" is not in [endpoint.columns]", at: setting.field)
            return nil
        }
        if setting.lag != nil, columns[column].type != .timestamp {
            report(
                "incremental: lag needs a timestamp column; \"\(setting.columnName)\" is \(columns[column].type)",
                at: setting.field)
            return nil
        }
        return IncrementalConfiguration(
            param: setting.param, column: column, initial: setting.initial, lag: setting.lag,
            deletedFlag: setting.deletedFlag)
    }
}
