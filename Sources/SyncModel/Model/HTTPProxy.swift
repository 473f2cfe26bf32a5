/// Which HTTP proxy requests go through: the environment's (the default), none, or one named here (`proxy`, with
/// `proxy_auth`). The same value serves a ``SyncEndpoint`` and an ``APIRequest``.
///
/// Every request through a proxy is tunnelled with `CONNECT host:port`, `https://` and `http://` URLs alike, so the
/// proxy must allow `CONNECT` to the upstream's port. The proxy's credentials go in `Proxy-Authorization` on the
/// `CONNECT` only, never to the upstream; the upstream's credentials travel inside the tunnel, never in the
/// `CONNECT`. Through an `https://` URL's tunnel the proxy sees only TLS; through an `http://` URL's it could read
/// the request, credential included, as anyone on that path could.
///
/// ```swift
/// endpoint.proxy = .url("http://proxy.corp:3128", authorization: .basic(username: "syncd", password: .environment("PROXY_PASSWORD")))
/// request.proxy = .direct  // never a proxy, whatever HTTPS_PROXY says
/// ```
///
/// With ``environment`` (the default), `HTTPS_PROXY` (for `https://` URLs) or `HTTP_PROXY` (for `http://` URLs),
/// else `ALL_PROXY`, is used unless `NO_PROXY` matches the host, as curl reads them: each name in lower case first,
/// a URL without a scheme is `http://`, without a port 1080, and `user:password@` in it is the proxy's credential.
/// `NO_PROXY` is a comma-separated list: `*` matches every host; a name matches that host and every host below it
/// (`example.com` and `.example.com` both match `example.com` and `api.example.com`, not `myexample.com`); an IP
/// address matches that address, and `10.0.0.0/8` or `fd00::/8` a range of them; an entry's `:port` is ignored, as
/// curl does; case does not matter, blanks around entries are dropped. Loopback is not exempt unless listed.
///
/// ## Topics
///
/// - ``environment``
/// - ``direct``
/// - ``url(_:authorization:)``
public struct HTTPProxy: Sendable, Hashable {
    package enum Choice: Sendable, Hashable {
        case environment
        case direct
        case url(String)
    }

    package var choice: Choice
    /// The proxy's credentials (`proxy_auth`), sent as `Proxy-Authorization` on each `CONNECT`: basic only. The
    /// default is none.
    public var authorization: Credential?

    /// `HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY` and `NO_PROXY`, as curl reads them; the default.
    public static let environment = HTTPProxy(choice: .environment)

    /// No proxy, whatever the environment says (`proxy = ""`, as curl's `--proxy ""`).
    public static let direct = HTTPProxy(choice: .direct)

    /// The proxy at `url` for every request, whatever the environment says.
    ///
    /// - Parameters:
    ///   - url: `http://host:port`.
    ///   - authorization: ``Credential/basic(username:password:)``, or nil.
    public static func url(_ url: String, authorization: Credential? = nil) -> HTTPProxy {
        HTTPProxy(choice: .url(url), authorization: authorization)
    }

    /// What is wrong with it, in syncd.toml's words: the URL (never quoted), and a `proxy_auth` that is not basic or
    /// has no proxy to go to.
    package var problems: [OptionProblem] {
        var problems: [OptionProblem] = []
        if case .url(let text) = choice, case .failure(let error) = ProxyAddress.parse(text, strict: true) {
            problems.append(OptionProblem(key: "proxy", "proxy \(error.clause)"))
        }
        if let authorization {
            if authorization.kindName != "basic" {
                problems.append(OptionProblem(key: "proxy_auth", "proxy_auth: type must be \"basic\""))
            } else {
                problems += authorization.problems.map { OptionProblem(key: "proxy_auth", "proxy_" + $0.sentence) }
            }
            if choice == .environment {
                problems.append(
                    OptionProblem(
                        key: "proxy_auth",
                        "proxy_auth needs proxy: a proxy from the environment takes its credentials from its URL"))
            }
        }
        return problems
    }
}
