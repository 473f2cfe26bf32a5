import Synchronization

/// The answers of ``FaultUpstream``: healthy users, or the injected ``Fault`` written out byte by byte.
final class FaultAnswers: Sendable {
    private struct State {
        var generation = 0
        var fault: Fault?
    }

    /// How long ``Fault/slowDrip`` waits between two bytes.
    static let dripInterval = Duration.milliseconds(50)
    /// What ``Fault/gzipBomb`` expands to, and ``Fault/hugeRecord``'s name.
    static let bombSize = 4 << 20
    static let hugeNameSize = 100 << 20

    private let userCount: Int
    private let state = Mutex(State())

    init(userCount: Int) {
        self.userCount = userCount
    }

    var generation: Int {
        state.withLock { $0.generation }
    }

    func inject(_ fault: Fault?) {
        state.withLock { $0.fault = fault }
    }

    func advance() {
        state.withLock { $0.generation += 1 }
    }

    /// The current users, or a 304 when `conditional` and `If-None-Match` names their ETag.
    func healthy(_ request: UpstreamRequest, conditional: Bool = true) -> FaultAnswer {
        let generation = self.generation
        let entityTag = "\"g\(generation)\""
        if conditional, request.header("If-None-Match") == entityTag {
            return FaultAnswer(parts: [.bytes(FaultAnswer.head(status: 304, headers: [("ETag", entityTag)]))])
        }
        return .json(users(generation), headers: [("ETag", entityTag)])
    }

    func answer(_ request: UpstreamRequest, otherOrigin: String) -> FaultAnswer {
        let (generation, fault) = state.withLock { ($0.generation, $0.fault) }
        guard let fault else { return healthy(request) }
        let next = users(generation + 1)
        let half = next.count / 2
        let jsonHead = [("Content-Type", "application/json")]
        switch fault {
        case .refusedConnection:
            return healthy(request)  // the port is closed: no request arrives
        case .resetMidBody:
            let head = FaultAnswer.head(status: 200, headers: jsonHead + [("Content-Length", "\(next.count)")])
            return FaultAnswer(parts: [.bytes(head + next[..<half]), .reset])
        case .slowDrip:
            let head = FaultAnswer.head(status: 200, headers: jsonHead + [("Content-Length", "\(next.count)")])
            return FaultAnswer(parts: [.bytes(head), .drip(next, every: Self.dripInterval)])
        case .truncatedWithLength:
            let head = FaultAnswer.head(status: 200, headers: jsonHead + [("Content-Length", "\(next.count)")])
            return FaultAnswer(parts: [.bytes(head + next[..<half])])
        case .truncatedWithoutLength:
            return FaultAnswer(parts: [.bytes(FaultAnswer.head(status: 200, headers: jsonHead) + next[..<half])])
        case .contentLengthLie:
            let head = FaultAnswer.head(status: 200, headers: jsonHead + [("Content-Length", "\(half)")])
            return FaultAnswer(parts: [.bytes(head + next)])
        case .gzipBomb:
            let bomb = GzipBomb.make(
                prefix: Array(next.dropLast()), run: UInt8(ascii: " "), count: Self.bombSize,
                suffix: [UInt8(ascii: "]")])
            return .complete(headers: jsonHead + [("Content-Encoding", "gzip")], body: bomb)
        case .invalidUTF8:
            return .json(Self.breakingFirstName(users(generation)))
        case .htmlOK:
            let page = "<!doctype html><html><head><title>Sign in</title></head><body><form></form></body></html>\n"
            return .complete(headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(page.utf8))
        case .serverErrorStorm:
            let problem = #"{"type":"about:blank","title":"Service Unavailable","status":503}"#
            return .complete(
                status: 503, headers: [("Content-Type", "application/problem+json")], body: Array(problem.utf8))
        case .tooManyRequestsStorm:
            let problem = #"{"type":"about:blank","title":"Too Many Requests","status":429}"#
            return .complete(
                status: 429, headers: [("Content-Type", "application/problem+json"), ("Retry-After", "1")],
                body: Array(problem.utf8))
        case .redirectLoop:
            return .complete(status: 302, headers: [("Location", request.path == "/users" ? "/users/loop" : "/users")])
        case .crossOriginRedirect:
            return .complete(status: 302, headers: [("Location", otherOrigin + request.uri)])
        case .headerFlood:
            let flood = (0..<10_000).map { (name: "X-Flood-\($0)", value: "flood") }
            return .json(next, headers: flood)
        case .hugeHeader:
            return .json(next, headers: [("X-Huge", String(repeating: "h", count: 1 << 20))])
        case .hugeRecord:
            return Self.hugeRecord(after: users(generation))
        case .endlessPagination, .cyclicPagination:
            return page(request, of: fault, first: next)
        }
    }

    private func users(_ generation: Int) -> [UInt8] {
        SampleUsers.json(count: userCount, generation: generation)
    }

    /// Page 1 is `first`; page N after it holds one user, id 1000 + N, and links to page N + 1 — except page 3 of a
    /// cycle, which links back to page 1.
    private func page(_ request: UpstreamRequest, of fault: Fault, first: [UInt8]) -> FaultAnswer {
        let number = request.query["page"].flatMap { Int($0) } ?? 1
        let next = fault == .cyclicPagination && number >= 3 ? "/users" : "/users?page=\(number + 1)"
        let link = [("Link", "<\(next)>; rel=\"next\"")]
        guard number > 1 else { return .json(first, headers: link) }
        var json = JSONBytes(reservingCapacity: 1024)
        json.raw("[")
        SampleUser(id: 1000 + number, version: 0).write(to: &json, indent: 0)
        json.raw("]")
        return .json(json.bytes, headers: link)
    }

    /// `users` with 0xC3 0x28 (a lead byte followed by one that cannot continue it) at the start of the first name.
    private static func breakingFirstName(_ users: [UInt8]) -> [UInt8] {
        let key = Array(#""name": ""#.utf8)
        guard let start = users.firstRange(of: key) else { return users }
        var broken = users
        broken.insert(contentsOf: [0xC3, 0x28], at: start.upperBound)
        return broken
    }

    /// `users` and one more user whose name is ``hugeNameSize`` bytes of `a`, streamed with its true length.
    private static func hugeRecord(after users: [UInt8]) -> FaultAnswer {
        let prefix = Array(users.dropLast()) + Array(#",{"id":100000,"name":""#.utf8)
        let suffix = Array(#""}]"#.utf8)
        let length = prefix.count + hugeNameSize + suffix.count
        let head = FaultAnswer.head(
            status: 200, headers: [("Content-Type", "application/json"), ("Content-Length", "\(length)")])
        return FaultAnswer(parts: [
            .bytes(head + prefix), .filler(UInt8(ascii: "a"), count: hugeNameSize), .bytes(suffix),
        ])
    }
}
