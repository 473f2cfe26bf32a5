extension ConfigurationParser {
    private static let clientSecretKeys = ["client_secret_env", "client_secret_file", "client_secret_credential"]
    private static let refreshTokenKeys = ["refresh_token_file", "refresh_token_credential"]

    /// `auth = { type = "oauth2", token_url = "https://…", client_id = "…", client_secret_env = "…" }`: client
    /// credentials by default, or `grant = "refresh_token"` with `refresh_token_file` or `refresh_token_credential`.
    /// Every problem is reported at the line of its key.
    mutating func oauth2(_ field: Field, table: TOMLTable, options: [Field]) -> Credential? {
        var isValid = true
        var strings: [String: String] = [:]
        var secret: SecretSource?
        var refreshToken: SecretSource?
        for option in options where option.key != "type" {
            switch option.key {
            case _ where !ConfigurationKeys.isKnown(option.key, in: .auth):
                report("auth: unknown key \"\(option.key)\" for type \"oauth2\"", at: option)
                isValid = false
            case "token_url", "client_id", "scope", "audience", "client_auth", "grant":
                if let value = string(option, what: "auth: \(option.key) must be a non-empty string") {
                    strings[option.key] = value
                } else {
                    isValid = false
                }
            case _ where Self.clientSecretKeys.contains(option.key):
                if let source = secretSource(option) { secret = source } else { isValid = false }
            case _ where Self.refreshTokenKeys.contains(option.key):
                if let source = secretSource(option) { refreshToken = source } else { isValid = false }
            default:
                report("auth: unknown key \"\(option.key)\" for type \"oauth2\"", at: option)
                isValid = false
            }
        }
        func at(_ key: String) -> Field { options.first { $0.key == key } ?? field }
        for key in ["token_url", "client_id"] where table[key] == nil {
            report("auth: type \"oauth2\" needs \"\(key)\"", at: field)
            isValid = false
        }
        let authentication = OAuth2ClientAuthenticationMethod(rawValue: strings["client_auth"] ?? "basic")
        if authentication == nil, strings["client_auth"] != nil {
            report("auth: client_auth must be \"basic\" or \"post\"", at: at("client_auth"))
            isValid = false
        }
        let grant = strings["grant"] ?? "client_credentials"
        let secretCount = options.count { Self.clientSecretKeys.contains($0.key) }
        let refreshCount = options.count { Self.refreshTokenKeys.contains($0.key) }
        switch grant {
        case "client_credentials":
            if secretCount != 1 {
                report(
                    "auth: type \"oauth2\" needs exactly one of client_secret_env, client_secret_file or "
                        + "client_secret_credential", at: field)
                isValid = false
            }
            if refreshCount > 0 {
                report(
                    "auth: a refresh token is for grant = \"refresh_token\" only",
                    at: options.first { Self.refreshTokenKeys.contains($0.key) } ?? field)
                isValid = false
            }
        case "refresh_token":
            if secretCount > 1 {
                report(
                    "auth: type \"oauth2\" takes at most one of client_secret_env, client_secret_file or "
                        + "client_secret_credential", at: field)
                isValid = false
            }
            if refreshCount != 1 {
                report(
                    "auth: grant = \"refresh_token\" needs exactly one of refresh_token_file or "
                        + "refresh_token_credential", at: field)
                isValid = false
            }
        default:
            report("auth: grant must be \"client_credentials\" or \"refresh_token\"", at: at("grant"))
            isValid = false
        }
        // Checked even when something above is missing, so that every problem is reported at once.
        let client = Credential.OAuth2(
            tokenURL: strings["token_url"] ?? "https://-", clientID: strings["client_id"] ?? "-",
            clientSecret: secret ?? (grant == "refresh_token" ? nil : .literal("-")), scope: strings["scope"],
            audience: strings["audience"], authentication: authentication ?? .basic,
            refreshToken: grant == "refresh_token" ? refreshToken ?? .literal("-") : nil)
        for problem in client.problems {
            report(problem.sentence, at: problem.key.map(at) ?? field)
            isValid = false
        }
        return isValid ? Credential(placement: .oauth2(client)) : nil
    }
}
