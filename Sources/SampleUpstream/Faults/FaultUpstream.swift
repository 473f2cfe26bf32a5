/// A users API on loopback that is healthy until told to misbehave: the upstream of the fault matrix.
///
/// Healthy, `GET /users` serves ``SampleUsers`` of the current generation with `ETag: "g<generation>"` and answers a
/// matching `If-None-Match` with 304. ``inject(_:)`` makes every later request meet a ``Fault`` until
/// `inject(nil)`; ``advance()`` moves to the next generation (a few users changed, one gone, one added). A second
/// server, ``otherOrigin``, serves the same users (always with a 200) for ``Fault/crossOriginRedirect`` and records
/// what it was sent.
///
/// ```swift
/// let upstream = try await FaultUpstream.start(userCount: 20)
/// let url = upstream.server.baseURL + "/users"
/// try await upstream.inject(.resetMidBody)
/// // … a sync fails …
/// try await upstream.inject(nil)
/// upstream.advance()
/// try await upstream.shutdown()
/// ```
package final class FaultUpstream: Sendable {

    /// Where the users are: `server.baseURL + "/users"`.
    package let server: FaultServer
    /// Another origin (another port) serving the current users, the target of ``Fault/crossOriginRedirect``.
    package let otherOrigin: FaultServer
    private let answers: FaultAnswers

    private init(server: FaultServer, otherOrigin: FaultServer, answers: FaultAnswers) {
        self.server = server
        self.otherOrigin = otherOrigin
        self.answers = answers
    }

    /// Starts both servers on ephemeral ports of 127.0.0.1.
    ///
    /// - Parameter userCount: How many users every generation has.
    /// - Throws: NIO's error if a port cannot be bound.
    /// - Returns: The running, healthy upstream.
    package static func start(userCount: Int = 20) async throws -> FaultUpstream {
        let answers = FaultAnswers(userCount: userCount)
        // Never 304: a run that followed the redirect shows as a 200, not as the 304s of the healthy polls.
        let otherOrigin = try await FaultServer.start { answers.healthy($0, conditional: false) }
        let server: FaultServer
        do {
            server = try await FaultServer.start { answers.answer($0, otherOrigin: otherOrigin.baseURL) }
        } catch {
            try? await otherOrigin.shutdown()  // best effort: the bind error is the one to report
            throw error
        }
        return FaultUpstream(server: server, otherOrigin: otherOrigin, answers: answers)
    }

    /// The current generation of `/users`, 0 at first.
    package var generation: Int {
        answers.generation
    }

    /// Makes every later request meet `fault`, or none when `nil`. ``Fault/refusedConnection`` closes the port
    /// until the next call.
    ///
    /// - Throws: NIO's error if the port cannot be closed or bound again.
    package func inject(_ fault: Fault?) async throws {
        answers.inject(fault)
        if fault == .refusedConnection {
            try await server.refuseConnections()
        } else {
            try await server.acceptConnections()
        }
    }

    /// Moves `/users` to the next generation, with a new ETag.
    package func advance() {
        answers.advance()
    }

    /// Stops both servers.
    ///
    /// - Throws: NIO's error if a listening socket failed to close.
    package func shutdown() async throws {
        try await server.shutdown()
        try await otherOrigin.shutdown()
    }
}
