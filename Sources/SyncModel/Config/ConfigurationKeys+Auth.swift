import SyncSupport

/// The keys of `auth`, `proxy_auth` and `webhook`.
extension ConfigurationKeys {
    private static let oauth2 = [
        #"type = "oauth2""#, #"token_url = "https://auth.example.com/oauth/token""#, #"client_id = "syncd""#,
    ]
    private static let oauth2Secret = oauth2 + [#"client_secret_env = "CLIENT_SECRET""#]
    private static let refresh = oauth2 + [#"grant = "refresh_token""#]
    private static let proxy = [#"proxy = "http://proxy.corp:3128""#]
    private static let secretRule =
        "Each kind takes exactly one secret source: `*_env`, `*_file` or `credential`."

    static let auth: [ConfigurationKey] = [
        .key(
            "type", "string", default: .text("required"),
            range: #"`"bearer"`, `"basic"`, `"header"`, `"query"` or `"oauth2"`"#, since: "2026-11-22",
            example: #""bearer""#, with: [#"token_env = "API_TOKEN""#],
            "How the secret is sent: `Authorization: Bearer`, HTTP Basic, a header of its own, a query parameter, "
                + "or an OAuth2 access token that syncd renews itself. " + secretRule),
        .key(
            "token_env", "string", kinds: ["bearer"], since: "2026-11-22", example: #""API_TOKEN""#,
            with: [#"type = "bearer""#],
            "The environment variable that holds the bearer token."),
        .key(
            "token_file", "string", kinds: ["bearer"], since: "2026-11-22", example: #""/etc/syncd/api.token""#,
            with: [#"type = "bearer""#],
            "The file that holds the bearer token."),
        .key(
            "username", "string", default: .text("required"), kinds: ["basic"], since: "2026-11-22",
            example: #""me@example.com""#, with: [#"type = "basic""#, #"password_env = "API_PASSWORD""#],
            "The basic credential's user name."),
        .key(
            "password_env", "string", kinds: ["basic"], since: "2026-11-22", example: #""API_PASSWORD""#,
            with: [#"type = "basic""#, #"username = "me@example.com""#],
            "The environment variable that holds the password."),
        .key(
            "password_file", "string", kinds: ["basic"], since: "2026-11-22", example: #""/etc/syncd/api.pass""#,
            with: [#"type = "basic""#, #"username = "me@example.com""#],
            "The file that holds the password."),
        .key(
            "name", "string", default: .text("required"), kinds: ["header", "query"], since: "2026-11-22",
            example: #""X-Api-Key""#, with: [#"type = "header""#, #"value_env = "API_KEY""#],
            "The header's or the query parameter's name."),
        .key(
            "value_env", "string", kinds: ["header", "query"], since: "2026-11-22", example: #""API_KEY""#,
            with: [#"type = "header""#, #"name = "X-Api-Key""#],
            "The environment variable that holds the header's or the parameter's value."),
        .key(
            "value_file", "string", kinds: ["header", "query"], since: "2026-11-22",
            example: #""/etc/syncd/api.key""#, with: [#"type = "query""#, #"name = "api_key""#],
            "The file that holds the header's or the parameter's value."),
        .key(
            "credential", "string", kinds: ["bearer", "basic", "header", "query"], since: "2026-11-22",
            example: #""api-token""#, with: [#"type = "bearer""#],
            "The secret as a file name in systemd's `$CREDENTIALS_DIRECTORY` (`LoadCredential=`)."),
        .key(
            "token_url", "string", default: .text("required"), kinds: ["oauth2"], since: "2026-12-06",
            example: #""https://auth.example.com/oauth/token""#,
            with: [#"type = "oauth2""#, #"client_id = "syncd""#, #"client_secret_env = "CLIENT_SECRET""#],
            "The token endpoint: `https`, or `http` to a loopback host only."),
        .key(
            "client_id", "string", default: .text("required"), kinds: ["oauth2"], since: "2026-12-06",
            example: #""syncd""#,
            with: [
                #"type = "oauth2""#, #"token_url = "https://auth.example.com/oauth/token""#,
                #"client_secret_env = "CLIENT_SECRET""#,
            ],
            "The OAuth2 client's id."),
        .key(
            "client_secret_env", "string", kinds: ["oauth2"], since: "2026-12-06", example: #""CLIENT_SECRET""#,
            with: oauth2,
            "The environment variable that holds the client secret. The client credentials grant needs exactly "
                + "one client secret source; a refresh token grant takes at most one."),
        .key(
            "client_secret_file", "string", kinds: ["oauth2"], since: "2026-12-06",
            example: #""/etc/syncd/client.secret""#, with: oauth2,
            "The file that holds the client secret."),
        .key(
            "client_secret_credential", "string", kinds: ["oauth2"], since: "2026-12-06",
            example: #""client-secret""#, with: oauth2,
            "The client secret as a file name in `$CREDENTIALS_DIRECTORY`."),
        .key(
            "scope", "string", kinds: ["oauth2"], since: "2026-12-06", example: #""users.read""#,
            with: oauth2Secret,
            "The scope asked for, sent as given."),
        .key(
            "audience", "string", kinds: ["oauth2"], since: "2026-12-06", example: #""https://api.example.com""#,
            with: oauth2Secret,
            "The audience asked for, sent as given."),
        .key(
            "client_auth", "string", default: .value(#""basic""#), range: #"`"basic"` or `"post"`"#,
            kinds: ["oauth2"], since: "2026-12-06", example: #""post""#, with: oauth2Secret,
            "`\"basic\"` sends the client id and secret with HTTP Basic (`client_secret_basic`); `\"post\"` sends "
                + "them in the form."),
        .key(
            "grant", "string", default: .value(#""client_credentials""#),
            range: #"`"client_credentials"` or `"refresh_token"`"#, kinds: ["oauth2"], since: "2026-12-06",
            example: #""client_credentials""#, with: oauth2Secret,
            "`\"refresh_token\"` asks with a refresh token given once in a file or a credential. A rotated one is "
                + "kept in syncd's state folder."),
        .key(
            "refresh_token_file", "string", kinds: ["oauth2"], since: "2026-12-06",
            example: #""/etc/syncd/refresh-token""#, with: refresh,
            "With `grant = \"refresh_token\"`: the file that holds the first refresh token."),
        .key(
            "refresh_token_credential", "string", kinds: ["oauth2"], since: "2026-12-06",
            example: #""refresh-token""#, with: refresh,
            "With `grant = \"refresh_token\"`: the first refresh token as a file name in `$CREDENTIALS_DIRECTORY`."),
    ]

    static let proxyAuth: [ConfigurationKey] = [
        .key(
            "type", "string", default: .text("required"), range: #"`"basic"`"#, since: "2026-12-06",
            example: #""basic""#, with: [#"username = "syncd""#, #"password_env = "PROXY_PASSWORD""#], around: proxy,
            "The proxy's credential kind: basic only."),
        .key(
            "username", "string", default: .text("required"), since: "2026-12-06", example: #""syncd""#,
            with: [#"type = "basic""#, #"password_env = "PROXY_PASSWORD""#], around: proxy,
            "The proxy's user name."),
        .key(
            "password_env", "string", since: "2026-12-06", example: #""PROXY_PASSWORD""#,
            with: [#"type = "basic""#, #"username = "syncd""#], around: proxy,
            "The environment variable that holds the proxy's password. Set exactly one of `password_env`, "
                + "`password_file` or `credential`."),
        .key(
            "password_file", "string", since: "2026-12-06", example: #""/etc/syncd/proxy.pass""#,
            with: [#"type = "basic""#, #"username = "syncd""#], around: proxy,
            "The file that holds the proxy's password."),
        .key(
            "credential", "string", since: "2026-12-06", example: #""proxy-password""#,
            with: [#"type = "basic""#, #"username = "syncd""#], around: proxy,
            "The proxy's password as a file name in `$CREDENTIALS_DIRECTORY`."),
    ]

    static let webhook: [ConfigurationKey] = [
        .key(
            "signature", "string", default: .text("required"),
            range: #"`"github"`, `"stripe"`, `"hmac-sha256"` or `"none"`"#, since: "2026-12-07",
            example: #""github""#, with: [#"secret_env = "HOOK_SECRET""#],
            "How a hook is signed. `\"none\"` takes no secret, and only when the read API listens on loopback or "
                + "a Unix socket."),
        .key(
            "secret_env", "string", since: "2026-12-07", example: #""HOOK_SECRET""#,
            with: [#"signature = "github""#],
            "The environment variable that holds the hooks' secret. A signed kind takes exactly one of "
                + "`secret_env`, `secret_file` or `credential`."),
        .key(
            "secret_file", "string", since: "2026-12-07", example: #""/etc/syncd/hook.secret""#,
            with: [#"signature = "stripe""#],
            "The file that holds the hooks' secret."),
        .key(
            "credential", "string", since: "2026-12-07", example: #""hook-secret""#,
            with: [#"signature = "github""#],
            "The hooks' secret as a file name in `$CREDENTIALS_DIRECTORY`."),
        .key(
            "header", "string", default: .text("required"), kinds: ["hmac-sha256"], since: "2026-12-07",
            example: #""X-Signature""#, with: [#"signature = "hmac-sha256""#, #"secret_env = "HOOK_SECRET""#],
            "The header that carries the hex HMAC-SHA256 of the body."),
        .key(
            "tolerance", "duration", default: .value(#""5m""#),
            range: ConfigurationBounds.describe(SyncEndpoint.Webhook.toleranceBounds), kinds: ["stripe"],
            since: "2026-12-07", example: #""10m""#,
            with: [#"signature = "stripe""#, #"secret_env = "HOOK_SECRET""#],
            "How far a hook's `t=` may be from now: an older one is a replay."),
        .key(
            "parent_key", "string", since: "2026-12-07", example: #""repository.full_name""#,
            with: [#"signature = "github""#, #"secret_env = "HOOK_SECRET""#], around: [#"parent = "repos""#],
            "A child endpoint's hook: the JSON path, in the hook's body, of the parent to walk again. A hook "
                + "without a value there walks every parent."),
    ]
}
