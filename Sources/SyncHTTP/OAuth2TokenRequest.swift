internal import FoundationEssentials
package import SyncModel

/// A request for an access token at an OAuth2 token endpoint (RFC 6749 §4.4 client credentials, §6 refresh): the
/// form it posts and how the client authenticates, `client_secret_basic` (§2.3.1, the default every server must
/// support) or `client_secret_post`.
///
/// The body and the `Authorization` field hold secrets: the request is never logged, and it follows no redirect
/// (``FetchRequest/followsRedirects``), so that a token endpoint that redirects elsewhere cannot send the secret on.
package struct OAuth2TokenRequest: Sendable, Hashable {
    /// How the client proves who it is: the configuration's own choice.
    package typealias ClientAuthentication = OAuth2ClientAuthenticationMethod

    /// What the token is asked for with.
    package enum Grant: Sendable, Hashable {
        case clientCredentials
        /// A refresh token (§6); the server may answer with a new one, which replaces it.
        case refreshToken(String)
    }

    /// The token endpoint: https, or http on loopback (the configuration checks it).
    package var tokenURL: String
    package var clientID: String
    package var clientSecret: String?
    package var scope: String?
    /// `audience`, which Auth0, Okta and others ask for beside the RFC's parameters.
    package var audience: String?
    package var authentication: ClientAuthentication
    package var grant: Grant
    /// The proxy and TLS settings the token endpoint is reached with: those of the endpoint that first asked.
    package var proxy: HTTPProxy = .environment
    package var tls = TLSSettings()

    package init(
        tokenURL: String, clientID: String, clientSecret: String?, scope: String? = nil, audience: String? = nil,
        authentication: ClientAuthentication = .basic, grant: Grant = .clientCredentials
    ) {
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scope = scope
        self.audience = audience
        self.authentication = authentication
        self.grant = grant
    }

    /// The request as sent: a form POST within `timeout`, its answer at most ``OAuth2TokenResponse/maxBodyBytes``.
    package func fetchRequest(timeout: Duration) -> FetchRequest {
        var form: [(String, String)] = []
        switch grant {
        case .clientCredentials:
            form.append(("grant_type", "client_credentials"))
        case .refreshToken(let token):
            form.append(("grant_type", "refresh_token"))
            form.append(("refresh_token", token))
        }
        if let scope { form.append(("scope", scope)) }
        if let audience { form.append(("audience", audience)) }
        var headers = [
            (name: "Content-Type", value: "application/x-www-form-urlencoded"),
            (name: "Accept", value: "application/json"),
        ]
        switch authentication {
        case .basic:
            let pair = Self.formEncoded(clientID) + ":" + Self.formEncoded(clientSecret ?? "")
            headers.append((name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString()))
        case .post:
            form.append(("client_id", clientID))
            if let clientSecret { form.append(("client_secret", clientSecret)) }
        }
        var request = FetchRequest(
            url: tokenURL, headers: headers, timeout: timeout, maxBody: OAuth2TokenResponse.maxBodyBytes)
        request.method = "POST"
        request.body = Array(form.map { Self.formEncoded($0) + "=" + Self.formEncoded($1) }.joined(separator: "&").utf8)
        request.followsRedirects = false
        (request.proxy, request.tls) = (proxy, tls)
        return request
    }

    /// `text` encoded as `application/x-www-form-urlencoded` (RFC 6749 Appendix B, the HTML form encoding): letters,
    /// digits and `*-._` as they are, a space as `+`, every other byte of its UTF-8 as `%XX`.
    static func formEncoded(_ text: String) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"):
                encoded.append(byte)
            case UInt8(ascii: " "):
                encoded.append(UInt8(ascii: "+"))
            default:
                encoded += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
