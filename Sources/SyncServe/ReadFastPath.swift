internal import HTTPTypes
internal import SyncCore
internal import Synchronization

/// The read API's hot requests answered on the event loop: a `GET` of one record or of a list whose answer is
/// already in memory (``ReadModel``'s kept representations, or a list's revalidation), while nothing committed
/// since.
///
/// Hummingbird hands every request to a Swift task and its answer back to the event loop, after NIO's HTTP/1 codec
/// has made parts of it and HTTP types of those; for an answer that is only a dictionary lookup, that is most of
/// the cost. So ``ReadFastPathHandler`` reads the bytes before the codec does (``RequestHead``) and asks
/// ``answer(_:admitted:)``. Everything else, and anything unusual about a request (another method, `HEAD`, a
/// `Connection` header other than `keep-alive`, an `Expect` header, a Host or token the middleware would refuse, a
/// path in any but the routes' plain form), goes on to the codec and the router, which answer it as they always
/// did. What the fast path sends is the router's own answer for that request (``KeptAnswer`` and
/// ``ReadModel/recordsFromMemory(_:_:_:query:request:)`` build both), with the same `Date` and `Server`, as the
/// codec's bytes, and it is counted in `syncd_http_requests_total` under the same route.
package struct ReadFastPath: Sendable {
    let model: ReadModel
    let counters: RequestCounters
    /// The bearer token every request must carry, when one is configured.
    let token: ReadToken?
    /// The `Host` values a token-less TCP listen admits.
    let allowedHosts: AllowedHosts?
    let tally: FastPathTally

    /// The route label and the answer, or `nil` to leave the request to the router.
    ///
    /// - Parameter admitted: The last `Host` the connection's requests were admitted with: once the port is bound,
    ///   whether a `Host` is admitted depends on nothing else, so the next request with the same one skips the check.
    func answer(_ head: RequestHead, admitted: inout String?) -> (route: String, answer: MemoryAnswer)? {
        guard head.isGET, !head.needsRouter else { return nil }
        // A reader's Cache-Control may ask for a sync first (``ReadModel/revalidate(_:request:)``): the router's.
        if head.fields[.cacheControl] != nil, model.allowsRevalidate { return nil }
        if let token {
            guard let header = head.fields[.authorization], token.admits(header) else { return nil }
        }
        if let allowedHosts, let authority = head.authority, authority != admitted {
            guard allowedHosts.admits(authority) else { return nil }
            admitted = authority
        }
        guard let route = Route(head.target) else { return nil }
        guard let (endpoint, served, snapshot) = model.syncedInMemory(route.name) else { return nil }
        switch route.kind {
        case .record(let id):
            return model.recordFromMemory(endpoint, served, snapshot, id: id, request: head.fields).map {
                (Route.recordLabel, $0)
            }
        case .records(let query, let label):
            return model.recordsFromMemory(endpoint, served, snapshot, query: query, request: head.fields).map {
                (label, $0)
            }
        }
    }

    /// One of the routes the fast path takes, from a request target in its plain form: `/v1/endpoints/NAME/records`,
    /// `/v1/endpoints/NAME/records/ID` or `/rest/NAME`, each segment non-empty, with or without `?query`.
    package struct Route: Equatable {
        package enum Kind: Equatable {
            case record(id: String)
            case records(query: String, label: String)
        }

        static let recordLabel = "/v1/endpoints/{name}/records/{id}"
        static let recordsLabel = "/v1/endpoints/{name}/records"
        static let restLabel = "/rest/{name}"

        package var name: String
        package var kind: Kind

        package init(name: String, kind: Kind) {
            self.name = name
            self.kind = kind
        }

        package init?(_ target: String) {
            let utf8 = target.utf8
            // ASCII only, so that characters and bytes count alike (a target is ASCII on the wire; anything else is
            // the router's to judge).
            guard utf8.first == UInt8(ascii: "/"), utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "#") })
            else { return nil }
            let mark = utf8.firstIndex(of: UInt8(ascii: "?"))
            let path = target[..<(mark ?? target.endIndex)]
            let query = mark.map { String(target[target.utf8.index(after: $0)...]) } ?? ""
            // The router's parameters are the raw segments, percent-decoded by the routes.
            func decoded(_ segment: Substring) -> String? {
                guard !segment.isEmpty, !segment.utf8.contains(UInt8(ascii: "/")) else { return nil }
                return segment.utf8.contains(UInt8(ascii: "%"))
                    ? QueryString.decode(segment, plusIsSpace: false) : String(segment)
            }
            if let rest = Self.after("/v1/endpoints/", in: path) {
                guard let slash = rest.utf8.firstIndex(of: UInt8(ascii: "/")), let name = decoded(rest[..<slash])
                else { return nil }
                let tail = rest[slash...]
                self.name = name
                if tail.utf8.elementsEqual("/records".utf8) {
                    kind = .records(query: query, label: Self.recordsLabel)
                } else if let id = Self.after("/records/", in: tail).flatMap(decoded) {
                    kind = .record(id: id)
                } else {
                    return nil
                }
            } else if let name = Self.after("/rest/", in: path).flatMap(decoded) {
                self.name = name
                kind = .records(query: query, label: Self.restLabel)
            } else {
                return nil
            }
        }

        /// `text` after `prefix`, compared byte for byte (a character comparison costs more than the rest of a
        /// route's parsing); `nil` when it does not start with it.
        private static func after(_ prefix: StaticString, in text: Substring) -> Substring? {
            let bytes = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            guard text.utf8.starts(with: bytes) else { return nil }
            return text[text.utf8.index(text.startIndex, offsetBy: bytes.count)...]
        }
    }
}

/// A count of the answers the fast path sent.
package final class FastPathTally: Sendable {
    private let answered = Atomic<Int>(0)

    package init() {}

    package var count: Int { answered.load(ordering: .relaxed) }

    func add() {
        answered.add(1, ordering: .relaxed)
    }
}
