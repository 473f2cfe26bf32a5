import Foundation
import NIOCore
import SampleUpstream
import Testing

@testable import SyncCore
@testable import SyncHTTP

/// The fault matrix's upstream does what its faults say, seen through syncd's own HTTP transport.
@Suite("Sample upstream: faults")
struct FaultUpstreamTests {
    @Test("the gzip bomb inflates, its CRC-32 checked, to the next users padded with 4 MiB of spaces")
    func gzipBomb() async throws {
        try await withFaultUpstream { upstream, transport in
            try await upstream.inject(.gzipBomb)
            let request = FetchRequest(url: upstream.server.baseURL + "/users", maxBody: 8 << 20)
            let response = try await transport.fetch(request, successBody: nil)
            let body = Array(response.body.readableBytesView)
            let users = SampleUsers.json(count: 3, generation: 1)
            #expect(body.count == users.count + (4 << 20))
            #expect(body.prefix(users.count - 1).elementsEqual(users.dropLast()))
            #expect(body.dropFirst(users.count - 1).dropLast().allSatisfy { $0 == UInt8(ascii: " ") })
            #expect(body.last == UInt8(ascii: "]"))
        }
    }

    @Test("a refused port is refused and held (no other server can take it), then listens again on the same port")
    func refusedConnection() async throws {
        try await withFaultUpstream { upstream, transport in
            let request = FetchRequest(url: upstream.server.baseURL + "/users")
            try await upstream.inject(.refusedConnection)
            await #expect(throws: FetchError.connection) {
                try await transport.fetch(request, successBody: nil)
            }
            // Another test's server binding the port meanwhile would receive what was meant for this one.
            #expect(throws: POSIXError.self) { try ClosedPort(port: upstream.server.port, sharedWithListener: false) }
            try await upstream.inject(nil)
            #expect(try await transport.fetch(request, successBody: nil).status == 200)
        }
    }

    private func withFaultUpstream(_ body: (FaultUpstream, HTTPTransport) async throws -> Void) async throws {
        let upstream = try await FaultUpstream.start(userCount: 3)
        let transport = HTTPTransport()
        do {
            try await body(upstream, transport)
        } catch {
            try? await transport.shutdown()  // best effort: the test's error is the one to report
            try? await upstream.shutdown()
            throw error
        }
        try await transport.shutdown()
        try await upstream.shutdown()
    }
}
