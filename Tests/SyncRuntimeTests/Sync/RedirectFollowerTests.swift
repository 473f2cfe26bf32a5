import Testing

@testable import SyncCore
@testable import SyncHTTP

/// The redirect rules on their own: methods, origins, the query credential, limits.
@Suite("redirect follower")
struct RedirectFollowerTests {
    static func request(method: String = "GET") -> FetchRequest {
        var request = FetchRequest(
            url: "https://api.example.com/v1/users?k=s3cret&page=1",
            headers: [(name: "Authorization", value: "Bearer s3cret"), (name: "X-Tenant", value: "acme")],
            etag: "\"v1\"")
        request.credentialQueryName = "k"
        request.method = method
        request.body = method == "GET" ? nil : [1, 2, 3]
        return request
    }

    @Test("a 303 becomes a GET without body; a 307 and a 308 keep the method and body; a 301 or 302 turns POST to GET")
    func methods() throws {
        for (status, method, kept) in [
            (303, "PUT", false), (307, "POST", true), (308, "PUT", true), (302, "POST", false), (301, "PUT", true),
        ] {
            var follower = RedirectFollower(Self.request(method: method))
            guard case .follow(let next) = follower.next(status: status, location: "/v2/users") else {
                Issue.record("\(status) is followed")
                continue
            }
            #expect(next.method == (kept ? method : "GET"), "\(status)")
            #expect((next.body != nil) == kept, "\(status)")
            #expect(next.url == "https://api.example.com/v2/users")
            #expect(next.headers.count == 2, "same origin keeps the headers")
        }
    }

    @Test(
        "another scheme, host or port is another origin: headers and the query credential are dropped, validators kept")
    func otherOrigin() {
        for location in [
            "http://api.example.com/v1/users?k=s3cret", "https://cdn.example.com/x?k=s3cret&y=1",
            "https://api.example.com:8443/x?k=s3cret",
        ] {
            var follower = RedirectFollower(Self.request())
            guard case .follow(let next) = follower.next(status: 302, location: location) else {
                Issue.record("\(location) is followed")
                continue
            }
            #expect(next.headers.isEmpty, "\(location)")
            #expect(!next.url.contains("s3cret"), "\(location)")
            #expect(next.etag == "\"v1\"")
        }
    }

    @Test("a 304, a 200 and a redirect without Location are final")
    func final() {
        var follower = RedirectFollower(Self.request())
        for (status, location) in [(304, "/x"), (200, "/x"), (302, nil)] {
            guard case .final = follower.next(status: status, location: location) else {
                Issue.record("\(status) is final")
                continue
            }
        }
    }
}
