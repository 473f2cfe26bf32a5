extension ConfigurationParser {
    private static let authKinds = ["bearer", "basic", "header", "query"]
    private static let allAuthKeys: Set<String> = [
        "username", "name", "token_env", "token_file", "password_env", "password_file", "value_env", "value_file",
        "credential",
    ]

    /// The keys each kind takes besides `type`: a name key, if any, and the three secret sources.
    private static func authKeys(for kind: String) -> (name: String?, secrets: [String]) {
        switch kind {
        case "bearer": (nil, ["token_env", "token_file", "credential"])
        case "basic": ("username", ["password_env", "password_file", "credential"])
        default: ("name", ["value_env", "value_file", "credential"])
        }
    }

    /// `auth = { type = "bearer", token_env = "TOKEN" }` and the other kinds, with exactly one secret source.
    mutating func auth(_ field: Field) -> Credential? {
        guard let table = field.value.table else {
            report("auth must be an inline table such as { type = \"bearer\", token_env = \"TOKEN\" }", at: field)
            return nil
        }
        let scope = Scope(path: field.path, context: field.scope.context)
        let options = fields(of: table, in: scope)
        guard let kind = table["type"]?.string, Self.authKinds.contains(kind) else {
            if table["type"] == nil {
                report("auth: missing \"type\" (bearer, basic, header or query)", at: field)
            } else {
                report("auth: type must be \"bearer\", \"basic\", \"header\" or \"query\"", at: field)
            }
            for option in options where option.key != "type" && !Self.allAuthKeys.contains(option.key) {
                report("auth: unknown key \"\(option.key)\"", at: option)
            }
            return nil
        }
        let keys = Self.authKeys(for: kind)
        var name: String?
        var secrets: [SecretSource] = []
        var isValid = true
        for option in options where option.key != "type" {
            if option.key == keys.name {
                name = authName(option, kind: kind)
                isValid = isValid && name != nil
            } else if keys.secrets.contains(option.key) {
                if let secret = secretSource(option) { secrets.append(secret) } else { isValid = false }
            } else {
                report("auth: unknown key \"\(option.key)\" for type \"\(kind)\"", at: option)
                isValid = false
            }
        }
        if let nameKey = keys.name, table[nameKey] == nil {
            report("auth: type \"\(kind)\" needs \"\(nameKey)\"", at: field)
            isValid = false
        }
        if options.count(where: { keys.secrets.contains($0.key) }) != 1 {
            let list = keys.secrets.dropLast().joined(separator: ", ") + " or " + (keys.secrets.last ?? "")
            report("auth: type \"\(kind)\" needs exactly one of \(list)", at: field)
            isValid = false
        }
        guard isValid, let secret = secrets.first else { return nil }
        switch kind {
        case "bearer": return .bearer(Secret(source: secret))
        case "basic": return name.map { .basic(username: $0, password: Secret(source: secret)) }
        case "header": return name.map { .header(name: $0, value: Secret(source: secret)) }
        default: return name.map { .query(name: $0, value: Secret(source: secret)) }
        }
    }

    /// `username` of basic, `name` of header (a header name) and query (a parameter name).
    private mutating func authName(_ field: Field, kind: String) -> String? {
        guard let value = field.value.string, !value.isEmpty, !HTTPHeaderSyntax.hasForbiddenByte(value) else {
            report("auth: \(field.key) must be a non-empty string", at: field)
            return nil
        }
        if kind == "header", !HTTPHeaderSyntax.isToken(value) {
            report("auth: \"\(value)\" is not a valid header name", at: field)
            return nil
        }
        if kind == "basic", value.contains(":") {
            report("auth: username must not contain \":\"", at: field)
            return nil
        }
        return value
    }

    private mutating func secretSource(_ field: Field) -> SecretSource? {
        if field.key.hasSuffix("_env") {
            guard let name = field.value.string, !name.isEmpty, !name.contains("="), !name.utf8.contains(0) else {
                report("auth: \(field.key) must be the name of an environment variable", at: field)
                return nil
            }
            return .environment(name)
        }
        if field.key.hasSuffix("_file") {
            return path(field, what: "auth: \(field.key) must be a path to a file holding the secret").map { .file($0) }
        }
        guard let name = field.value.string, !name.isEmpty, name != ".", name != "..", !name.contains("/") else {
            report("auth: credential must be a file name in $CREDENTIALS_DIRECTORY (LoadCredential=)", at: field)
            return nil
        }
        return .credential(name)
    }
}
