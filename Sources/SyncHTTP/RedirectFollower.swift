/// Follows redirects the way syncd allows: at most 5, no URL twice, http and https only, and nothing secret to
/// another origin. From the first hop whose scheme, host or port differs from the request's first URL on, the
/// request's headers (the configured ones and the credentials) are dropped and the query credential is removed
/// from the URL; `User-Agent`, `Accept` and the conditional headers, which are no secret, still go.
///
/// A pure state machine: ``HTTPTransport`` feeds it each answer's status and `Location` and does what it says.
struct RedirectFollower {
    /// What comes after an answer.
    enum Decision {
        /// Send this request next.
        case follow(FetchRequest)
        /// The answer is the final one: not a redirect, or a redirect without `Location`.
        case final
        /// The redirect cannot be followed.
        case failure(FetchError)
    }

    /// The most redirects one request follows.
    static let maxRedirects = 5

    /// The request to send now.
    private(set) var request: FetchRequest
    private let origin: String
    private var visited: Set<String>
    private var count = 0
    private var leftOrigin = false

    init(_ request: FetchRequest) {
        self.request = request
        self.origin = request.url
        self.visited = [request.url]
    }

    /// Takes the answer to ``request`` and says what to do next.
    /// The statuses followed when they carry a `Location`.
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    mutating func next(status: Int, location: String?) -> Decision {
        guard request.followsRedirects, Self.redirectStatuses.contains(status), let location else { return .final }
        guard var url = PageURL.resolve(location, against: request.url) else {
            return .failure(.connection("a redirect leads to a URL that is not http or https"))
        }
        count += 1
        guard count <= Self.maxRedirects else { return .failure(.connection("more than 5 redirects")) }
        if !leftOrigin, !PageURL.isSameOrigin(url, origin) {
            leftOrigin = true
            request.headers = []
        }
        if leftOrigin, let name = request.credentialQueryName { url = PageURL.removing([name], from: url) }
        guard visited.insert(url).inserted else { return .failure(.connection("the redirects go round in a cycle")) }
        request.url = url
        // RFC 9110 15.4: a 303 is answered with GET; after a 301 or 302 user agents switch a POST to GET too.
        if status == 303 || ((status == 301 || status == 302) && request.method == "POST") {
            request.method = "GET"
            request.body = nil
        }
        return .follow(request)
    }
}
