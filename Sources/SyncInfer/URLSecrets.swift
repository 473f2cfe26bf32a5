import SyncCore
import SyncHTTP
import SyncSupport

/// A sample's URL as the stanza prints it, its secrets kept out: the query parameters ``URLRedaction`` names secret
/// (`api_key`, `access_token`, `X-Amz-Signature`…) are dropped from the url, and the first becomes the endpoint's
/// `auth = { type = "query", … }`, read from an environment variable; any other secret is shown redacted.
///
/// ```swift
/// URLSecrets(url: "https://example.com/users?api_key=abc&page=2", endpoint: "users")
/// // url "https://example.com/users?page=2", auth name "api_key", environment "USERS_API_KEY"
/// ```
struct URLSecrets: Equatable {
    /// The query credential proposed for the parameter dropped from the url.
    struct QueryAuth: Equatable {
        /// The parameter's name, percent-decoded, as the configuration's `auth` `name` takes it.
        var name: String
        /// The environment variable to hold its value: `USERS_API_KEY`.
        var environment: String
    }

    /// The url to print: without its secret query parameters, anything else secret redacted.
    private(set) var url: String
    /// The `auth` proposed; nil when the query held no secret (or none the configuration can name).
    private(set) var auth: QueryAuth?
    /// Secret parameters dropped besides the one `auth` sends (an endpoint has one `auth`).
    private(set) var dropped: [String] = []
    /// Whether the url still shows ``URLRedaction/marker`` where a secret was (user information, a parameter after
    /// `;` or `#`), which the stanza cannot move to `auth`.
    private(set) var isRedacted = false

    init(url: String, endpoint: String) {
        var names: [String] = []
        for item in Self.queryItems(of: url) {
            let rawName = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let name = PercentDecoding.decode(rawName)
            if URLRedaction.isSecret(name), !names.contains(name) { names.append(name) }
        }
        let stripped = names.isEmpty ? url : PageURL.removing(Set(names), from: url)
        self.url = URLRedaction.redact(stripped)
        isRedacted = self.url != stripped
        // The configuration refuses a name it could not send (empty, or with a line break or NUL).
        if let name = names.first(where: { Credential.query(name: $0, value: .environment("-")).problems.isEmpty }) {
            auth = QueryAuth(name: name, environment: Self.environmentName(endpoint: endpoint, parameter: name))
        }
        dropped = names.filter { $0 != auth?.name }
    }

    /// The `name=value` items of the query, between `?` and `#`.
    private static func queryItems(of url: String) -> [Substring] {
        var base = Substring(url)
        if let hash = base.firstIndex(of: "#") { base = base[..<hash] }
        guard let question = base.firstIndex(of: "?") else { return [] }
        return base[base.index(after: question)...].split(separator: "&")
    }

    /// `USERS_API_KEY`: the endpoint's name and the parameter's, in capitals, every other character an underscore.
    static func environmentName(endpoint: String, parameter: String) -> String {
        let scalars = (endpoint + "_" + parameter).uppercased().unicodeScalars.map { scalar in
            ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) ? Character(scalar) : "_"
        }
        return String(scalars)
    }
}
