/// Runs `body`, then `stop`, whether `body` throws or not: a server's or a proxy's life around a test. The body's
/// error is the one thrown; `stop`'s is thrown when the body succeeded.
package func running<T>(_ body: () async throws -> T, thenStopping stop: () async throws -> Void) async throws -> T {
    let result: T
    do {
        result = try await body()
    } catch {
        try? await stop()  // the body's error is the one to report
        throw error
    }
    try await stop()
    return result
}
