extension ConfigurationParser {
    private static let authKinds = ["bearer", "basic", "header", "query", "oauth2"]

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
                report("auth: missing \"type\" (bearer, basic, header, query or oauth2)", at: field)
            } else {
                report("auth: type must be \"bearer\", \"basic\", \"header\", \"query\" or \"oauth2\"", at: field)
            }
            for option in options where !ConfigurationKeys.isKnown(option.key, in: .auth) {
                report("auth: unknown key \"\(option.key)\"", at: option)
            }
            return nil
        }
        if kind == "oauth2" { return oauth2(field, table: table, options: options) }
        let keys = Self.authKeys(for: kind)
        var name: String?
        var nameField: Field?
        var secrets: [SecretSource] = []
        var isValid = true
        for option in options where option.key != "type" {
            if !ConfigurationKeys.isKnown(option.key, in: .auth) {
                report("auth: unknown key \"\(option.key)\" for type \"\(kind)\"", at: option)
                isValid = false
            } else if option.key == keys.name {
                // Not a string reads as empty, which the credential's rules refuse in the same words.
                name = option.value.string ?? ""
                nameField = option
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
        // Checked even when the secret is missing, so that every problem is reported at once.
        let secret = Credential.Secret(source: secrets.first ?? .literal("-"))
        let credential: Credential =
            switch kind {
            case "bearer": .bearer(secret)
            case "basic": .basic(username: name ?? "-", password: secret)
            case "header": .header(name: name ?? "-", value: secret)
            default: .query(name: name ?? "-", value: secret)
            }
        for problem in credential.problems {
            report(problem.sentence, at: nameField ?? field)
            isValid = false
        }
        return isValid ? credential : nil
    }

    /// A secret's source from a `*_env`, `*_file` or other (credential) key; `option` starts the messages
    /// (`auth`, `proxy_auth`), or none when empty.
    mutating func secretSource(_ field: Field, option: String = "auth") -> SecretSource? {
        let prefix = option.isEmpty ? "" : option + ": "
        if field.key.hasSuffix("_env") {
            guard let name = field.value.string, !name.isEmpty, !name.contains("="), !name.utf8.contains(0) else {
                report("\(prefix)\(field.key) must be the name of an environment variable", at: field)
                return nil
            }
            return .environment(name)
        }
        if field.key.hasSuffix("_file") {
            return path(field, what: "\(prefix)\(field.key) must be a path to a file holding the secret").map {
                .file($0)
            }
        }
        guard let name = field.value.string, !name.isEmpty, name != ".", name != "..", !name.contains("/") else {
            report("\(prefix)\(field.key) must be a file name in $CREDENTIALS_DIRECTORY (LoadCredential=)", at: field)
            return nil
        }
        return .credential(name)
    }
}
