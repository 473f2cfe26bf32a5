/// Fetches a URL once. ``HTTPTransport`` speaks HTTP and HTTPS, ``FileTransport`` reads file:// URLs.
package protocol Transport: Sendable {
    /// Performs the request, reading the whole body.
    ///
    /// - Throws: ``FetchError`` when no complete answer came; a non-2xx status is an answer, not an error.
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse
}

/// Routes each request to the transport for its URL's scheme.
package struct SchemeTransport: Transport {
    package var http: any Transport
    package var file: any Transport

    package init(http: any Transport, file: any Transport = FileTransport()) {
        self.http = http
        self.file = file
    }

    package func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        if request.url.lowercased().hasPrefix("file:") {
            return try await file.fetch(request)
        }
        return try await http.fetch(request)
    }
}
