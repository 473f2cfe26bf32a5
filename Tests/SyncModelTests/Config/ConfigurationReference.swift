import SyncSupport

@testable import SyncCore

/// `docs/reference/configuration.md`, made from ``ConfigurationKeys``: a test keeps the committed page equal to
/// ``markdown`` (`SYNCD_UPDATE_REFERENCE=1` rewrites it). It lives with the tests: it only documents, so the
/// binary does not carry it.
enum ConfigurationReference {
    /// The whole page.
    static var markdown: String {
        var page = intro
        for scope in ConfigurationScope.allCases {
            // A table with kinds says which kinds take each key.
            let kindKey = scope.kindTables.isEmpty ? nil : scope == .webhook ? "signature" : "type"
            page += "\n## \(scope.heading)\n\n\(scopeIntro(scope))\n\n| Key | Type | Default |"
            page += kindKey.map { " Only with \($0) |\n|---|---|---|---|\n" } ?? "\n|---|---|---|\n"
            for key in scope.keys {
                let heading = heading(of: key, in: scope)
                page += "| [`\(heading)`](#\(anchor(heading))) | \(key.type) | \(defaultText(key)) |"
                if kindKey != nil { page += " \(key.kinds.map(kindList) ?? "any") |" }
                page += "\n"
            }
            for key in scope.keys { page += "\n" + section(key, in: scope) }
        }
        return page
    }

    /// A key's example as a reader writes it: the table it goes in, the keys it needs, and the key.
    static func example(of key: ConfigurationKey, in scope: ConfigurationScope) -> [String] {
        let line = "\(key.name) = \(key.example)"
        switch scope {
        case .root: return key.with + [line]
        case .server, .cluster, .defaults: return ["[\(scope.rawValue)]"] + key.with + [line]
        case .endpoint: return ["[[endpoint]]"] + key.with + [line]
        case .column: return ["[endpoint.columns]", "city = { " + (key.with + [line]).joined(separator: ", ") + " }"]
        default:
            let table = "\(scope.tableKey ?? "") = { " + (key.with + [line]).joined(separator: ", ") + " }"
            return ["[[endpoint]]"] + key.around + [table]
        }
    }

    /// The key's heading: its name, or `pagination.type` in an inline table, so that every anchor is unique.
    static func heading(of key: ConfigurationKey, in scope: ConfigurationScope) -> String {
        scope.tableKey.map { "\($0 == "columns" ? "column" : $0).\(key.name)" } ?? key.name
    }

    /// The anchor MkDocs gives a heading: lower case, without the characters that are not word characters,
    /// blanks or hyphens, blanks made hyphens (`pagination.type` is `paginationtype`).
    static func anchor(_ heading: String) -> String {
        let kept = heading.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == " " }
        return kept.split(separator: " ").joined(separator: "-")
    }

    private static func kindList(_ kinds: [String]) -> String {
        kinds.map { "`\"\($0)\"`" }.joined(separator: ", ")
    }

    private static func defaultText(_ key: ConfigurationKey) -> String {
        switch key.defaultValue {
        case .value(let value): "`\(value)`"
        case .text(let text): text
        }
    }

    private static func section(_ key: ConfigurationKey, in scope: ConfigurationScope) -> String {
        var rows = [("Type", key.type), ("Default", defaultText(key))]
        if let range = key.range { rows.append(("Allowed", range)) }
        if let kinds = key.kinds {
            let name = scope == .webhook ? "signature" : "type"
            rows.append(("Only with \(name)", kindList(kinds)))
        }
        if scope == .endpoint { rows.append(("In `[defaults]`", key.inDefaults ? "yes" : "no")) }
        rows.append(("Since", "\(SyncdVersion.current) (\(key.since))"))
        var text = "### \(heading(of: key, in: scope))\n\n\(key.summary)\n\n"
        for (name, value) in rows { text += "- \(name): \(value)\n" }
        text += "\n```toml\n" + example(of: key, in: scope).joined(separator: "\n") + "\n```\n"
        return text
    }

    /// The refusal the page shows: a test makes it with the parser.
    static let refusal = #"syncd: /etc/syncd/syncd.toml:14: [[endpoint]] "users": unknown key "intervall""#

    private static let intro = """
        # Configuration reference

        <!-- Made from Sources/SyncModel/Config/ConfigurationKeys*.swift: do not edit by hand. Run \
        `SYNCD_UPDATE_REFERENCE=1 swift test --filter ConfigurationReferenceTests` to remake it. -->

        syncd reads one TOML file: `--config PATH`, else `/etc/syncd/syncd.toml` when it exists, else \
        `./syncd.toml`. `syncd check-config` validates it. Every command refuses a broken file, naming the line \
        and the key:

        ```
        \(refusal)
        ```

        This page lists every key the parser accepts, made from the parser's own table of keys. A key missing \
        here is refused as unknown. Each example is parsed by a test, and each default is checked against the \
        parser's. Relative paths are relative to the configuration file's folder.

        **Since** gives the version and the day the key was added. syncd has had no release yet: every key is \
        in 0.1.0.

        """

    private static func scopeIntro(_ scope: ConfigurationScope) -> String {
        switch scope {
        case .root:
            """
            Keys outside any table. The tables are [`[server]`](#server), [`[cluster]`](#cluster), \
            [`[defaults]`](#defaults) and [`[[endpoint]]`](#endpoint).
            """
        case .server:
            "The read API of `syncd run`."
        case .cluster:
            """
            `syncd run` nodes that share a PostgreSQL database. It changes nothing on SQLite. A change needs a \
            restart.
            """
        case .defaults:
            """
            The daemon's own settings, and the default of every `[[endpoint]]` key marked *In `[defaults]`: \
            yes*. An endpoint's key replaces the default as a whole.
            """
        case .endpoint:
            """
            One API resource, cached in a table of its own. Only `name` and `url` are required. Without \
            `records` the endpoint is a document: the whole body is one cached resource.
            """
        case .column:
            """
            A column of `columns` is a JSON path (`name = "name"`), or a table of these options \
            (`lat = { path = "address.geo.lat", type = "real" }`).
            """
        case .pagination:
            """
            The keys of `pagination`. Each `type` takes its own keys; a key of another type is refused. An \
            inline table stays on one line; a long one reads better as `[endpoint.pagination]`.
            """
        case .incremental:
            """
            The keys of `incremental`, with `mode = "incremental"`. Rows are upserted, never deleted for being \
            absent.
            """
        case .auth:
            """
            The keys of `auth`. Each `type` takes its own keys; a key of another type is refused.
            """
        case .proxyAuth:
            "The keys of `proxy_auth`, the proxy's basic credential."
        case .webhook:
            """
            The keys of `webhook`. Each `signature` takes its own keys; a key of another signature is refused.
            """
        }
    }
}
