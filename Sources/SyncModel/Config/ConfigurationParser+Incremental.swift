import SyncDecoding

/// `incremental`: read from the file, then resolved against the endpoint's columns.
extension ConfigurationParser {
    /// `incremental = { param = "updated_since", column = "updated_at", initial = "…", lag = "5m" }`.
    mutating func incremental(_ field: Field) -> SyncEndpoint.Incremental? {
        guard let table = field.value.table else {
            report(
                #"incremental must be an inline table such as { param = "updated_since", column = "updated_at" }"#,
                at: field)
            return nil
        }
        let problemCount = problems.count
        var value = SyncEndpoint.Incremental(param: "", column: "")
        var optionFields: [String: Field] = [:]
        for option in fields(of: table, in: Scope(path: field.path, context: field.scope.context)) {
            optionFields[option.key] = option
            // A value of the wrong type reads as empty (or out of range), which the rules refuse in the same words.
            switch option.key {
            case _ where !ConfigurationKeys.isKnown(option.key, in: .incremental):
                report("incremental: unknown key \"\(option.key)\"", at: option)
            case "param":
                value.param = option.value.string ?? ""
            case "column":
                value.column = option.value.string ?? ""
            case "initial":
                value.initial = option.value.string ?? ""
            case "lag":
                if let text = option.value.string, let duration = ConfigDuration.parse(text) {
                    value.lag = duration
                } else {
                    report("incremental: lag must be a duration such as \"5m\"", at: option)
                }
            case "deleted_flag":
                if let text = option.value.string {
                    value.deletedFlag = text
                } else {
                    report(
                        "incremental: deleted_flag must be a JSON path such as \"data.items\" (\"$\" is the root)",
                        at: option)
                }
            default:
                report("incremental: unknown key \"\(option.key)\"", at: option)
            }
        }
        for problem in value.problems {
            // A missing key is reported below, once.
            guard let key = problem.key, let option = optionFields[key] else { continue }
            report(problem.sentence, at: option)
        }
        for key in ["param", "column"] where table[key] == nil {
            report("incremental: missing \"\(key)\"", at: field)
        }
        guard problems.count == problemCount else { return nil }
        return value
    }

    /// The checks that need the endpoint's columns and mode, reported at `field`, where `incremental` was set.
    mutating func resolve(
        _ incremental: SyncEndpoint.Incremental, at field: Field, columns: [ColumnSpec], mode: SyncMode
    ) {
        var found: [OptionProblem] = []
        _ = incremental.compile(columns: columns, mode: mode, problems: &found)
        for problem in found { report(problem.sentence, at: field) }
    }
}
