internal import SyncSQLite

/// The rules for the names a configuration gives, one place for the TOML file and for endpoints built in Swift
/// (`SyncEndpoint`), so the two cannot drift. Each returns why a name cannot be used, as a clause, or `nil`.
package enum NameRules {
    /// An endpoint's or a column's name, which is an SQL identifier: `^[a-z][a-z0-9_]{0,62}$`, not starting with `_`
    /// (syncd's own columns do).
    ///
    /// - Parameter kind: What the name names, for the clause: `endpoint name`, `column name`.
    package static func identifierProblem(_ text: String, kind: String) -> String? {
        guard (try? SQLIdentifier(validating: text)) == nil else { return nil }
        let rule =
            text.hasPrefix("_")
            ? "names starting with \"_\" are syncd's own (_raw, _version, _changed_at, _created_version)"
            : "use a lowercase letter, then up to 62 lowercase letters, digits or underscores"
        return "\"\(text)\" is not a valid \(kind): \(rule)"
    }

    /// An endpoint's name, which is also its table's: an identifier, and not one of the `syncd_` and `sqlite_` names
    /// that are syncd's and SQLite's own tables.
    static func endpointProblem(_ text: String) -> String? {
        if let problem = identifierProblem(text, kind: "endpoint name") { return problem }
        guard !text.hasPrefix("syncd_"), !text.hasPrefix("sqlite_") else {
            return "\"\(text)\" is not a valid endpoint name: names starting with \"syncd_\" or \"sqlite_\" are "
                + "reserved"
        }
        return nil
    }
}
