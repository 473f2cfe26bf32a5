package import NIOCore

/// Where a 2xx body goes as it streams in: called with each chunk, in order, on the fetching task.
package typealias BodyChunkHandler = (ByteBuffer) throws -> Void

/// Fetches a URL once. ``HTTPTransport`` speaks HTTP and HTTPS, ``FileTransport`` reads file:// URLs.
package protocol Transport: Sendable {
    /// Performs the request.
    ///
    /// With a `successBody` handler, a 2xx body goes to it chunk by chunk as it arrives (`max_body` still
    /// enforced) and the response's `body` stays empty; any other status's body is collected as usual.
    ///
    /// - Throws: ``FetchError`` when no complete answer came (a non-2xx status is an answer, not an error),
    ///   or what `successBody` throws, unchanged.
    func fetch(_ request: FetchRequest, successBody: BodyChunkHandler?) async throws -> FetchResponse

    /// Where a run's task is best run, taking turns among several: the threads on which the transport's answers
    /// arrive. `nil`: the cooperative pool.
    func nextRunExecutor() -> (any TaskExecutor)?
}

extension Transport {
    package func nextRunExecutor() -> (any TaskExecutor)? { nil }

    /// Performs the request, collecting the whole body.
    ///
    /// - Throws: ``FetchError`` when no complete answer came.
    package func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        do {
            return try await fetch(request, successBody: nil)
        } catch let error as FetchError {
            throw error
        } catch {
            throw FetchError.connection("the request failed")
        }
    }
}

/// Routes each request to the transport for its URL's scheme.
package struct SchemeTransport: Transport {
    package var http: any Transport
    package var file: any Transport

    package init(http: any Transport, file: any Transport = FileTransport()) {
        self.http = http
        self.file = file
    }

    package func fetch(_ request: FetchRequest, successBody: BodyChunkHandler?) async throws -> FetchResponse {
        if request.url.lowercased().hasPrefix("file:") {
            return try await file.fetch(request, successBody: successBody)
        }
        return try await http.fetch(request, successBody: successBody)
    }

    package func nextRunExecutor() -> (any TaskExecutor)? { http.nextRunExecutor() }
}
