/// Why ``LoopbackHTTPServer`` could not start or accept a connection.
package struct LoopbackHTTPServerError: Error, CustomStringConvertible {
    /// One sentence saying what failed.
    package var message: String

    package var description: String {
        "loopback HTTP server: \(message)"
    }
}
