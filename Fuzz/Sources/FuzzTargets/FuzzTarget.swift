/// The fuzz targets: each reads one input of any bytes and checks what must hold for it.
///
/// A target throws ``FuzzFailure`` when a property does not hold; a bug that traps traps. `syncd-fuzz` runs them
/// under libFuzzer (Fuzz/run.sh) or replays files, and `FuzzCorpusTests` replays every committed seed.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// The streaming record decoder against whole-body decoding: ``DecoderTarget``.
    case decoder
    /// The TOML configuration loader: ``ConfigTarget``.
    case config
    /// The read API's query parser, and the query run on a small database: ``QueryTarget``.
    case query
    /// Link, Retry-After, RateLimit, HTTP-date and If-None-Match parsing: ``HeadersTarget``.
    case headers
    /// The PostgreSQL `database` URL parser: ``DatabaseURLTarget``.
    case databaseURL = "database-url"
    /// `syncd sql`'s reading of a PostgreSQL script: ``PostgresSQLTarget``.
    case postgresSQL = "postgres-sql"
    /// The read API's fast path reading request heads, against NIO's HTTP/1 decoder: ``RequestHeadTarget``.
    case requestHead = "request-head"
    /// An OAuth2 token endpoint's answer: ``OAuth2TokenTarget``.
    case oauth2Token = "oauth2-token"
    /// Proxy URLs, `NO_PROXY` lists and the choice between them: ``ProxyTarget``.
    case proxy
    /// `{parent.NAME}` templates read and rendered for a URL, a header value and a body: ``ParentTemplateTarget``.
    case parentTemplate = "parent-template"
    /// Webhook signature headers (GitHub, Stripe, a named HMAC) and the check of a body: ``WebhookSignatureTarget``.
    case webhookSignature = "webhook-signature"

    /// Runs the target on one input.
    ///
    /// - Throws: ``FuzzFailure`` naming the property that did not hold.
    package func run(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let bytes = input.bindMemory(to: UInt8.self)
        switch self {
        case .decoder: try DecoderTarget.run(bytes)
        case .config: try ConfigTarget.run(bytes)
        case .query: try QueryTarget.run(bytes)
        case .headers: try HeadersTarget.run(bytes)
        case .databaseURL: try DatabaseURLTarget.run(bytes)
        case .postgresSQL: try PostgresSQLTarget.run(bytes)
        case .requestHead: try RequestHeadTarget.run(bytes)
        case .oauth2Token: try OAuth2TokenTarget.run(bytes)
        case .proxy: try ProxyTarget.run(bytes)
        case .parentTemplate: try ParentTemplateTarget.run(bytes)
        case .webhookSignature: try WebhookSignatureTarget.run(bytes)
        }
    }

    /// Runs the target on one input.
    package func run(_ input: [UInt8]) throws(FuzzFailure) {
        do {
            try input.withUnsafeBytes { buffer in try run(buffer) }
        } catch let failure as FuzzFailure {
            throw failure
        } catch {
            throw FuzzFailure("unexpected error \(error)")
        }
    }
}
