import SyncSupport

/// One key of the configuration file, as the reference (`docs/reference/configuration.md`) documents it.
///
/// The table of keys is the parser's gate: a key that is not in its scope's list is refused as unknown, so a key
/// cannot be accepted without being documented. `ConfigurationReferenceTests` parses every key's example in its
/// scope, checks each documented default against the parser's own, and keeps the reference page equal to
/// the page `ConfigurationReference` (a test helper) makes from it.
package struct ConfigurationKey: Sendable {
    /// What the key is when it is not set.
    package enum Default: Sendable {
        /// A TOML value that means the same as leaving the key out: a test sets it and compares.
        case value(String)
        /// Prose, for a default no TOML value can spell (`the host name`, `none`).
        case text(String)
    }

    package let name: String
    /// What the value is: `duration`, `integer`, `string`, `boolean`, `size`, `inline table`…
    package let type: String
    package let defaultValue: Default
    /// The values allowed, in the words of the parser's own message; nil when the type says it all.
    package let range: String?
    /// For a table with kinds (`pagination`, `auth`, `webhook`): the kinds that take the key; nil for all.
    package let kinds: [String]?
    /// For an `[[endpoint]]` key: whether `[defaults]` may set it for every endpoint.
    package let inDefaults: Bool
    /// The key's value in the example: TOML that parses.
    package let example: String
    /// The other keys of the same table the example needs (`type = "cursor"` for a cursor's `param`), in order.
    package let with: [String]
    /// For a key of an inline table: the keys of the enclosing `[[endpoint]]` the example needs.
    package let around: [String]
    /// The date the key was added, at syncd 0.1.0 (`git log -S` on the parser).
    package let since: String
    /// One to three sentences.
    package let summary: String

    /// A key; the arguments in the order the tables read best.
    static func key(
        _ name: String, _ type: String, default defaultValue: Default = .text("none"), range: String? = nil,
        kinds: [String]? = nil, inDefaults: Bool = false, since: String, example: String, with: [String] = [],
        around: [String] = [], _ summary: String
    ) -> ConfigurationKey {
        ConfigurationKey(
            name: name, type: type, defaultValue: defaultValue, range: range, kinds: kinds, inDefaults: inDefaults,
            example: example, with: with, around: around, since: since, summary: summary)
    }
}

/// A table of the configuration file and the keys it takes.
package enum ConfigurationScope: String, CaseIterable, Sendable {
    case root, server, cluster, defaults, endpoint, column, pagination, incremental, auth, proxyAuth, webhook

    /// The page's heading for the scope: its anchor is the link other pages use.
    package var heading: String {
        switch self {
        case .root: "Top level"
        case .server: "[server]"
        case .cluster: "[cluster]"
        case .defaults: "[defaults]"
        case .endpoint: "[[endpoint]]"
        case .column: "Column options"
        case .pagination: "Pagination options"
        case .incremental: "Incremental options"
        case .auth: "Auth options"
        case .proxyAuth: "Proxy auth options"
        case .webhook: "Webhook options"
        }
    }

    /// The key whose inline table this scope is (`pagination`), or nil for a table of the file.
    package var tableKey: String? {
        switch self {
        case .root, .server, .cluster, .defaults, .endpoint: nil
        case .column: "columns"
        case .pagination: "pagination"
        case .incremental: "incremental"
        case .auth: "auth"
        case .proxyAuth: "proxy_auth"
        case .webhook: "webhook"
        }
    }

    /// The keys, in the order the reference lists them.
    package var keys: [ConfigurationKey] {
        switch self {
        case .root: ConfigurationKeys.root
        case .server: ConfigurationKeys.server
        case .cluster: ConfigurationKeys.cluster
        case .defaults: ConfigurationKeys.defaults
        case .endpoint: ConfigurationKeys.endpoint + ConfigurationKeys.endpointRequest
        case .column: ConfigurationKeys.column
        case .pagination: ConfigurationKeys.pagination
        case .incremental: ConfigurationKeys.incremental
        case .auth: ConfigurationKeys.auth
        case .proxyAuth: ConfigurationKeys.proxyAuth
        case .webhook: ConfigurationKeys.webhook
        }
    }

    /// For a scope with kinds, each kind and the smallest table of that kind (the kind key first).
    package var kindTables: [(kind: String, keys: [String])] {
        switch self {
        case .pagination:
            [
                ("link", [#"type = "link""#]),
                (
                    "cursor", [#"type = "cursor""#, #"cursor_path = "meta.next""#, #"param = "cursor""#]
                ),
                ("next_url", [#"type = "next_url""#, #"path = "links.next""#]),
                ("page", [#"type = "page""#, #"param = "page""#]),
                ("offset", [#"type = "offset""#, #"param = "offset""#, "limit = 100"]),
            ]
        case .auth:
            [
                ("bearer", [#"type = "bearer""#, #"token_env = "TOKEN""#]),
                ("basic", [#"type = "basic""#, #"username = "u""#, #"password_env = "PASSWORD""#]),
                ("header", [#"type = "header""#, #"name = "X-Api-Key""#, #"value_env = "API_KEY""#]),
                ("query", [#"type = "query""#, #"name = "api_key""#, #"value_env = "API_KEY""#]),
                (
                    "oauth2",
                    [
                        #"type = "oauth2""#, #"token_url = "https://auth.example.com/token""#,
                        #"client_id = "syncd""#, #"client_secret_env = "CLIENT_SECRET""#,
                    ]
                ),
            ]
        case .webhook:
            [
                ("github", [#"signature = "github""#, #"secret_env = "HOOK_SECRET""#]),
                ("stripe", [#"signature = "stripe""#, #"secret_env = "HOOK_SECRET""#]),
                (
                    "hmac-sha256",
                    [#"signature = "hmac-sha256""#, #"secret_env = "HOOK_SECRET""#, #"header = "X-Signature""#]
                ),
                ("none", [#"signature = "none""#]),
            ]
        default: []
        }
    }

    /// The names the scope takes: its keys, and at the top level the tables of the file.
    package var names: Set<String> {
        var names = Set(keys.map(\.name))
        if self == .root { names.formUnion(["server", "cluster", "defaults", "endpoint"]) }
        return names
    }
}

/// The tables of keys, one file per part of the configuration.
package enum ConfigurationKeys {
    /// The names each scope takes, made once.
    private static let names: [ConfigurationScope: Set<String>] = Dictionary(
        uniqueKeysWithValues: ConfigurationScope.allCases.map { ($0, $0.names) })

    /// Whether `key` is one of `scope`'s keys. `[defaults]` sees the `[[endpoint]]` keys too, and the reverse, so
    /// that a key set in the wrong one keeps its own message (`"concurrency" is only valid in [defaults]`).
    package static func isKnown(_ key: String, in scope: ConfigurationScope) -> Bool {
        switch scope {
        case .defaults, .endpoint:
            names[.defaults, default: []].contains(key) || names[.endpoint, default: []].contains(key)
        default:
            names[scope, default: []].contains(key)
        }
    }

    /// `from 0 to 1`, for a range of fractions.
    static func describe(_ range: ClosedRange<Double>) -> String {
        func text(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
        return "from \(text(range.lowerBound)) to \(text(range.upperBound))"
    }
}
