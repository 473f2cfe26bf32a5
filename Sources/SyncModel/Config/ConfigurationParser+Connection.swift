/// The keys of an endpoint's connection, in `[defaults]` or `[[endpoint]]`: `proxy`, `proxy_auth`, `ca_file`,
/// `ca_only`, `client_certificate_file`/`_credential` and `client_key_file`/`_credential`, read into
/// ``SyncEndpoint/proxy`` and ``SyncEndpoint/tls``. Each key replaces its own part only: a `proxy` set in an
/// endpoint keeps the `proxy_auth` of `[defaults]`.
extension ConfigurationParser {
    private static let tlsFileKeys: Set<String> = [
        "ca_file", "ca_only", "client_certificate_file", "client_certificate_credential", "client_key_file",
        "client_key_credential",
    ]

    /// Reads one connection key into `endpoint`; false when `field` is not one of them.
    mutating func applyConnectionSetting(_ field: Field, to endpoint: inout SyncEndpoint) -> Bool {
        switch field.key {
        case "proxy":
            guard let text = field.value.string else {
                report("proxy must be a string: an http://host:port URL, or \"\" for none", at: field)
                break
            }
            if text.isEmpty {
                endpoint.proxy.choice = .direct
            } else if case .failure(let error) = ProxyAddress.parse(text, strict: true) {
                report("proxy \(error.clause)", at: field)
            } else {
                endpoint.proxy.choice = .url(text)
            }
        case "proxy_auth":
            if let credential = proxyAuth(field) { endpoint.proxy.authorization = credential }
        case "ca_file":
            if let path = path(field, what: "ca_file must be a path to a PEM file") { endpoint.tls.caFile = path }
        case "ca_only":
            if let value = bool(field) { endpoint.tls.caOnly = value }
        case "client_certificate_file", "client_certificate_credential":
            if let source = pemSource(field) { endpoint.tls.clientCertificate = Credential.Secret(source: source) }
        case "client_key_file", "client_key_credential":
            if let source = pemSource(field) { endpoint.tls.clientKey = Credential.Secret(source: source) }
        default:
            return false
        }
        return true
    }

    /// Reads the TLS files `endpoint` names as `syncd run` will (PEM, the key matching the certificate), when
    /// `fields` (one table) set one of the TLS keys, and reports a problem at the key it concerns. A systemd
    /// credential is read by the first request: `$CREDENTIALS_DIRECTORY` is the service's.
    mutating func checkTLSFiles(of endpoint: SyncEndpoint, in fields: [Field]) {
        let tlsFields = fields.filter { Self.tlsFileKeys.contains($0.key) }
        guard let first = tlsFields.first else { return }
        var files = endpoint.tls
        if !Self.isFile(files.clientCertificate) || !Self.isFile(files.clientKey) {
            (files.clientCertificate, files.clientKey) = (nil, nil)
        }
        guard files.caFile != nil || files.clientCertificate != nil, files.problems.isEmpty else { return }
        do {
            _ = try files.makeClientConfiguration(environment: [:])
        } catch {
            report(error.sentence, at: tlsFields.last { $0.key == error.key } ?? first)
        }
    }

    /// `proxy_auth = { type = "basic", username = "u", password_env = "P" }`, or `password_file`, or `credential`.
    private mutating func proxyAuth(_ field: Field) -> Credential? {
        guard let table = field.value.table else {
            report(
                "proxy_auth must be an inline table such as { type = \"basic\", username = \"u\", password_env = \"P\" }",
                at: field)
            return nil
        }
        let options = fields(of: table, in: Scope(path: field.path, context: field.scope.context))
        var username: String?
        var secrets: [SecretSource] = []
        var isValid = true
        for option in options {
            switch option.key {
            case _ where !ConfigurationKeys.isKnown(option.key, in: .proxyAuth):
                report("proxy_auth: unknown key \"\(option.key)\"", at: option)
                isValid = false
            case "type":
                guard option.value.string == "basic" else {
                    report("proxy_auth: type must be \"basic\"", at: option)
                    isValid = false
                    continue
                }
            case "username":
                // Not a string reads as empty, which the credential's rules refuse in the same words.
                username = option.value.string ?? ""
            case "password_env", "password_file", "credential":
                if let source = secretSource(option, option: "proxy_auth") {
                    secrets.append(source)
                } else {
                    isValid = false
                }
            default:
                report("proxy_auth: unknown key \"\(option.key)\"", at: option)
                isValid = false
            }
        }
        if table["type"] == nil || username == nil
            || options.count(where: { ["password_env", "password_file", "credential"].contains($0.key) }) != 1
        {
            report(
                "proxy_auth needs type = \"basic\", username and exactly one of password_env, password_file or credential",
                at: field)
            return nil
        }
        let credential = Credential.basic(
            username: username ?? "-", password: Credential.Secret(source: secrets.first ?? .literal("-")))
        for problem in credential.problems {
            report("proxy_" + problem.sentence, at: field)
            isValid = false
        }
        return isValid ? credential : nil
    }

    private static func isFile(_ secret: Credential.Secret?) -> Bool {
        if case .file = secret?.source { true } else { false }
    }

    /// A PEM's source: a path (`*_file`) or a systemd credential's name (`*_credential`).
    private mutating func pemSource(_ field: Field) -> SecretSource? {
        if field.key.hasSuffix("_file") {
            return path(field, what: "\(field.key) must be a path to a PEM file").map { .file($0) }
        }
        return secretSource(field, option: "")
    }
}
