import Foundation
package import NIOCore
import NIOPosix

/// A response as it came over the wire.
package struct RawResponse {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    /// `HTTP/1.1 200 OK`, as it came.
    package var statusLine = ""

    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

package struct RawClientError: Error {
    package var message: String
}

/// A deliberately small HTTP/1.1 client on one TCP connection: it writes request text as given and parses responses by
/// `Content-Length` only, so a test sees exactly what the server put on the wire.
package struct RawConnection {
    package var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    package let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    package var buffered: [UInt8] = []

    package func send(_ text: String) async throws {
        try await outbound.write(ByteBuffer(string: text))
    }

    /// Reads one response: the head, then `Content-Length` bytes of body if the response has one.
    package mutating func readResponse(hasBody: Bool = true) async throws -> RawResponse {
        var response = try await readHead()
        let length = hasBody ? Int(response.header("Content-Length") ?? "0") ?? 0 : 0
        while buffered.count < length {
            guard try await receive() else {
                throw RawClientError(message: "the connection closed after \(buffered.count) of \(length) body bytes")
            }
        }
        response.body = Array(buffered.prefix(length))
        buffered.removeFirst(length)
        return response
    }

    /// Reads a response head; what follows it stays buffered.
    package mutating func readHead() async throws -> RawResponse {
        let separator = Array("\r\n\r\n".utf8)
        while true {
            if let end = buffered.firstRange(of: separator) {
                let lines = String(decoding: buffered[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                buffered.removeFirst(end.upperBound)
                let statusLine = lines[0].split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                    throw RawClientError(message: "no status line: \(lines[0])")
                }
                let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    return (String(line[..<colon]), value)
                }
                return RawResponse(status: status, headers: headers, body: [], statusLine: lines[0])
            }
            guard try await receive() else {
                throw RawClientError(message: "the connection closed before a response head")
            }
        }
    }

    /// Everything left until the server closes the connection.
    package mutating func readToEnd() async throws -> [UInt8] {
        while try await receive() {}
        defer { buffered = [] }
        return buffered
    }

    /// Appends the next bytes that arrive; false once the server has closed the connection.
    private mutating func receive() async throws -> Bool {
        guard let buffer = try await inbound.next() else { return false }
        buffered.append(contentsOf: buffer.readableBytesView)
        return true
    }
}

/// Runs `body` with a ``RawConnection`` to 127.0.0.1:`port`, closed when it returns.
package func withRawConnection<Result: Sendable>(
    port: Int,
    _ body: (inout RawConnection) async throws -> Result
) async throws -> Result {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
    return try await channel.executeThenClose { inbound, outbound in
        var connection = RawConnection(inbound: inbound.makeAsyncIterator(), outbound: outbound)
        return try await body(&connection)
    }
}
