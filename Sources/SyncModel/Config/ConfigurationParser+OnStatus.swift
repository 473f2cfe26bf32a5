import SyncSupport

extension ConfigurationParser {
    /// `on_status = { 404 = "empty", 403 = "skip" }`: each key a status from 400 to 599 but 401, each value `"empty"`
    /// or `"skip"`; a problem is reported at its key's line. Nil when any entry is refused.
    mutating func onStatus(_ field: Field) -> [Int: SyncEndpoint.StatusAction]? {
        guard let table = field.value.table else {
            report("on_status must be an inline table such as { 404 = \"empty\", 403 = \"skip\" }", at: field)
            return nil
        }
        var actions: [Int: SyncEndpoint.StatusAction] = [:]
        var isValid = true
        for entry in fields(of: table, in: Scope(path: field.path, context: field.scope.context)) {
            // Three digits exactly: `0404` or `+404` is no status.
            let status =
                entry.key.utf8.count == 3 && entry.key.utf8.allSatisfy { (0x30...0x39).contains($0) }
                ? Int(entry.key) : nil
            guard let status, StatusPolicy.canMap(status) else {
                let shown = ControlCharacters.escaped(entry.key, .terminal)
                report("on_status: \"\(shown)\" cannot be mapped: \(StatusPolicy.expectedStatus)", at: entry)
                isValid = false
                continue
            }
            guard let action = entry.value.string.flatMap(SyncEndpoint.StatusAction.init(word:)) else {
                report("on_status: \(status) must be \"empty\" or \"skip\"", at: entry)
                isValid = false
                continue
            }
            actions[status] = action
        }
        return isValid ? actions : nil
    }

    /// A document endpoint's `on_status`: an `"empty"` in its own table is reported at its line; one from
    /// `[defaults]` is the collections', and dropped.
    mutating func checkDocumentStatuses(of endpoint: inout SyncEndpoint, in table: TOMLTable, scope: Scope) {
        if let own = table["on_status"]?.table {
            let field = Field(key: "on_status", value: .table(own), scope: scope)
            for entry in fields(of: own, in: Scope(path: field.path, context: scope.context))
            where entry.value.string == "empty" {
                report(
                    "on_status: \(entry.key) = \"empty\": a document endpoint takes only \"skip\" (a document has no "
                        + "empty form)", at: entry)
            }
        }
        endpoint.onStatus = endpoint.onStatus.filter { $0.value == .skip }
    }
}
