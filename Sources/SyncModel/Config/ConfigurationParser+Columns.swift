import SyncDecoding
internal import SyncSQLite

extension ConfigurationParser {
    /// `[endpoint.columns]`, in file order: `col = "json.path"` or
    /// `col = { path = "…", type = "…", required = true }`.
    mutating func columns(_ field: Field, endpoint: String) -> [(spec: ColumnSpec, declared: SyncColumn)] {
        let context = "[endpoint.columns] of \(endpoint.hasPrefix("#") ? endpoint : "\"\(endpoint)\"")"
        guard let table = field.value.table else {
            report("columns must be a table: write [endpoint.columns] after the endpoint's keys", at: field)
            return []
        }
        let scope = Scope(path: field.path, context: context)
        // Tables keep the file's order, and so do the columns.
        return fields(of: table, in: scope).compactMap { column($0) }
    }

    private mutating func column(_ field: Field) -> (spec: ColumnSpec, declared: SyncColumn)? {
        let name = identifier(field.key, kind: "column name", at: field)
        let prefix = "column \"\(field.key)\": "
        let scope = Scope(path: field.path, context: field.scope.context)
        if let text = field.value.string {
            guard let path = jsonPath(Field(key: "path", value: field.value, scope: scope), prefix: prefix),
                let name
            else { return nil }
            return (ColumnSpec(name: name.name, path: path), SyncColumn(name.name, path: text))
        }
        guard let table = field.value.table else {
            report(
                "column \"\(field.key)\" must be a JSON path or a table such as { path = \"a.b\", type = \"integer\" }",
                at: field
            )
            return nil
        }
        var path: JSONPath? = JSONPath(components: [.key(field.key)])
        var pathText: String?
        var type = ColumnType.text
        var required = false
        var isValid = name != nil
        for option in fields(of: table, in: scope) {
            switch option.key {
            case _ where !ConfigurationKeys.isKnown(option.key, in: .column):
                report("\(prefix)unknown key \"\(option.key)\"", at: option)
                isValid = false
            case "path":
                path = jsonPath(option, prefix: prefix)
                pathText = option.value.string
                isValid = isValid && path != nil
            case "type":
                if let value = option.value.string.flatMap(ColumnType.init(rawValue:)) {
                    type = value
                } else {
                    let types = ColumnType.allCases.map(\.rawValue).joined(separator: ", ")
                    report("\(prefix)type must be one of \(types)", at: option)
                    isValid = false
                }
            case "required":
                if let value = option.value.bool {
                    required = value
                } else {
                    report("\(prefix)required must be true or false", at: option)
                    isValid = false
                }
            default:
                report("\(prefix)unknown key \"\(option.key)\"", at: option)
                isValid = false
            }
        }
        guard isValid, let name, let path else { return nil }
        return (
            ColumnSpec(name: name.name, path: path, type: type, required: required),
            SyncColumn(name.name, path: pathText, type: type, required: required)
        )
    }
}
