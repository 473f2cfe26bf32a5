import SyncSupport

/// The keys of `[[endpoint]]` that shape its requests: headers, credentials, body, paging, and the connection.
extension ConfigurationKeys {
    static let endpointRequest: [ConfigurationKey] = [
        .key(
            "headers", "inline table", default: .text("none"), inDefaults: true, since: "2026-11-22",
            example: #"{ Accept = "application/json" }"#,
            "Header fields sent with every request. A `headers` set in an endpoint replaces the one of "
                + "`[defaults]` as a whole. They go only to the endpoint's origin."),
        .key(
            "auth", "inline table", default: .text("none"), inDefaults: true, since: "2026-11-22",
            example: #"{ type = "bearer", token_env = "API_TOKEN" }"#,
            "The credential: see [auth options](#auth-options). Secrets never appear in logs, in the database or "
                + "in messages, and go only to the endpoint's origin."),
        .key(
            "method", "string", default: .value(#""GET""#), since: "2026-11-22", example: #""POST""#,
            "`\"GET\"` or `\"POST\"`. A POST is never conditional: every poll fetches the whole answer."),
        .key(
            "body", "string", since: "2026-11-22", example: #"'{"query": "{ viewer { login } }"}'"#,
            with: [#"method = "POST""#],
            "POST only: the JSON sent, at most 1 MiB, as `application/json` unless `headers` set `Content-Type`. "
                + "A body whose top level holds a string `query` is a GraphQL request."),
        .key(
            "body_file", "string", since: "2026-11-28", example: #""query.json""#, with: [#"method = "POST""#],
            "The body, from a file (relative to the configuration's folder). Set `body` or `body_file`, not both."),
        .key(
            "pagination", "inline table", default: .text("none: one request"), inDefaults: true,
            since: "2026-11-22", example: #"{ type = "link" }"#,
            "The collection spans pages: see [pagination options](#pagination-options). Every page of a run is "
                + "applied in the run's one transaction. Collections only."),
        .key(
            "incremental", "inline table", default: .text("none"), inDefaults: true, since: "2026-11-22",
            example: #"{ param = "updated_since", column = "updated_at", lag = "5m" }"#,
            with: [#"mode = "incremental""#],
            "Asks only for what changed: see [incremental options](#incremental-options). Collections only."),
        .key(
            "webhook", "inline table", default: .text("none: synced on its schedule only"), inDefaults: true,
            since: "2026-12-07", example: #"{ secret_env = "HOOK_SECRET", signature = "github" }"#,
            "`POST /v1/hooks/NAME` on the read API syncs the endpoint at once: see "
                + "[webhook options](#webhook-options)."),
        .key(
            "proxy", "string", default: .text("the environment: `HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`…"),
            inDefaults: true, since: "2026-12-06", example: #""http://proxy.corp:3128""#,
            "An `http://` proxy, reached with `CONNECT`; `\"\"` means no proxy at all. Set, it replaces the "
                + "environment's proxy variables, `NO_PROXY` included."),
        .key(
            "proxy_auth", "inline table", default: .text("none"), inDefaults: true, since: "2026-12-06",
            example: #"{ type = "basic", username = "syncd", password_env = "PROXY_PASSWORD" }"#,
            with: [#"proxy = "http://proxy.corp:3128""#],
            "The proxy's basic credential, sent on the `CONNECT` only: see "
                + "[proxy auth options](#proxy-auth-options). It needs `proxy`: a proxy from the environment takes "
                + "its credentials from its URL."),
        .key(
            "ca_file", "string", default: .text("none: the system's trust roots"), inDefaults: true,
            since: "2026-12-06", example: #""ca.pem""#,
            "A PEM file of certificate authorities added to the system's trust roots. TLS is always verified."),
        .key(
            "ca_only", "boolean", default: .value("false"), inDefaults: true, since: "2026-12-06", example: "true",
            with: [#"ca_file = "ca.pem""#],
            "`true`: trust the `ca_file` only, not the system's roots."),
        .key(
            "client_certificate_file", "string", default: .text("none"), inDefaults: true, since: "2026-12-06",
            example: #""client.pem""#, with: [#"client_key_file = "client.key""#],
            "A PEM client certificate, then any intermediates, for mutual TLS. It needs a client key."),
        .key(
            "client_certificate_credential", "string", default: .text("none"), inDefaults: true,
            since: "2026-12-06", example: #""client.pem""#, with: [#"client_key_credential = "client.key""#],
            "The client certificate as a file name in `$CREDENTIALS_DIRECTORY`, read by the first request."),
        .key(
            "client_key_file", "string", default: .text("none"), inDefaults: true, since: "2026-12-06",
            example: #""client.key""#, with: [#"client_certificate_file = "client.pem""#],
            "The client certificate's key, PEM and unencrypted."),
        .key(
            "client_key_credential", "string", default: .text("none"), inDefaults: true, since: "2026-12-06",
            example: #""client.key""#, with: [#"client_certificate_credential = "client.pem""#],
            "The client key as a file name in `$CREDENTIALS_DIRECTORY`, read by the first request."),
    ]
}
