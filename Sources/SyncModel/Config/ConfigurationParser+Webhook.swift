extension ConfigurationParser {
    private static let webhookSignatures = ["github", "stripe", "hmac-sha256", "none"]
    private static let webhookSecretKeys = ["secret_env", "secret_file", "credential"]

    /// `webhook = { secret_env = "GH_HOOK_SECRET", signature = "github" }`, and `"stripe"` (with `tolerance`),
    /// `"hmac-sha256"` (with `header`) and `"none"`; every problem at the line of its key. A `"none"` is noted for the
    /// check against `[server] listen` (``reportUnsignedWebhooks(listen:)``).
    mutating func webhook(_ field: Field) -> SyncEndpoint.Webhook? {
        guard let table = field.value.table else {
            report(
                #"webhook must be an inline table such as { secret_env = "HOOK_SECRET", signature = "github" }"#,
                at: field)
            return nil
        }
        let options = fields(of: table, in: Scope(path: field.path, context: field.scope.context))
        let problemCount = problems.count
        guard let name = table["signature"]?.string, Self.webhookSignatures.contains(name) else {
            report(#"webhook: signature must be "github", "stripe", "hmac-sha256" or "none""#, at: field)
            return nil
        }
        var secrets: [SecretSource] = []
        var header: String?
        var tolerance = Duration.seconds(300)
        var parentKey: String?
        for option in options {
            switch option.key {
            case _ where !ConfigurationKeys.isKnown(option.key, in: .webhook):
                report("webhook: unknown key \"\(option.key)\" for signature \"\(name)\"", at: option)
            case "signature":
                break
            case let key where Self.webhookSecretKeys.contains(key):
                if let secret = secretSource(option, option: "webhook") { secrets.append(secret) }
            case "header" where name == "hmac-sha256":
                // Not a string reads as empty, which the webhook's rules refuse in the same words.
                header = option.value.string ?? ""
            case "tolerance" where name == "stripe":
                if let value = duration(option) { tolerance = value }
            case "parent_key":
                // Not a string reads as empty, which the path's rules refuse.
                parentKey = option.value.string ?? ""
            default:
                report("webhook: unknown key \"\(option.key)\" for signature \"\(name)\"", at: option)
            }
        }
        if name == "hmac-sha256", header == nil {
            report(#"webhook: signature "hmac-sha256" needs "header", the header that carries it"#, at: field)
        }
        let secretCount = options.count(where: { Self.webhookSecretKeys.contains($0.key) })
        if name != "none", secretCount > 1 {
            report(
                "webhook: signature \"\(name)\" needs exactly one of secret_env, secret_file or credential", at: field)
        }
        let signature: SyncEndpoint.Webhook.Signature =
            switch name {
            case "github": .github
            case "stripe": .stripe
            case "hmac-sha256": .hmacSHA256(header: header ?? "-")
            default: .none
            }
        let webhook = SyncEndpoint.Webhook(
            secret: secrets.first.map(Credential.Secret.init(source:)), signature: signature, tolerance: tolerance,
            parentKey: parentKey)
        // A secret key refused above is not missing as well.
        for problem in webhook.problems where problem.key != nil || secretCount == secrets.count {
            report(problem.sentence, at: options.last(where: { $0.key == problem.key }) ?? field)
        }
        if name == "none" { unsignedWebhooks.append(field) }
        return problems.count == problemCount ? webhook : nil
    }

    /// Refuses each `signature = "none"` when the read API is reachable from other machines: anyone there could make
    /// syncd poll the upstream as often as they like.
    mutating func reportUnsignedWebhooks(listen: SyncConfiguration.Server.Listen) {
        guard !listen.isLoopback else { return }
        for field in unsignedWebhooks {
            report(
                #"webhook: signature "none" is only for a read API on loopback or a Unix socket; "#
                    + #"sign the hooks ("github", "stripe" or "hmac-sha256") to listen here"#, at: field)
        }
    }
}
