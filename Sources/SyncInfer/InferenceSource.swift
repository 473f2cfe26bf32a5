internal import Foundation
internal import NIOCore
package import SyncCore

/// Where `syncd infer` reads a response from: a URL fetched with syncd's own transports, with their TLS, timeout
/// and body size rules, or bytes already read (a file given by path, standard input).
package enum InferenceSource {
    /// The `file://` URL of a path, made absolute against the current directory.
    package static func fileURL(path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.absoluteString
    }

    /// Fetches a 2xx body and infers the endpoint from it, reading the body where it was received; over HTTP, the
    /// response's `Link` fields go to the inference, so that a `rel="next"` link proposes link pagination.
    ///
    /// - Parameters:
    ///   - url: an http, https or file URL.
    ///   - inference: what to infer, with which name and records path.
    ///   - client: the process's HTTP client, which the caller shuts down.
    ///   - timeout: the time the whole request may take; syncd's default is 30 s.
    ///   - maxBody: the largest body accepted; syncd's default is 64 MiB.
    /// - Throws: ``FetchError`` when no answer came or the status is not 2xx (never quoting the URL, which may
    ///   carry a secret in its query); ``InferenceError`` when the body gives no endpoint.
    package static func infer(
        url: String, _ inference: EndpointInference, client: APIClient,
        timeout: Duration = EndpointConfiguration.defaultTimeout, maxBody: Int = EndpointConfiguration.defaultMaxBody
    ) async throws -> (endpoint: InferredEndpoint, shapes: InferredShapes) {
        let request = FetchRequest(url: url, timeout: timeout, maxBody: maxBody)
        let response =
            url.lowercased().hasPrefix("file:")
            ? try await FileTransport().fetch(request) : try await client.transport.fetch(request)
        guard response.isSuccess else {
            throw FetchError.connection(
                "the server answered \(response.status) \(HTTPStatusText.reason(response.status)), not a 2xx")
        }
        var inference = inference
        if !url.lowercased().hasPrefix("file:") { inference.links = response.links }
        let result = response.body.withUnsafeReadableBytes { bytes in
            Result { () throws(InferenceError) in try inference.infer(bytes) }
        }
        return try result.get()
    }

    /// Reads a descriptor to its end (standard input for `syncd infer -`) and infers the endpoint from it.
    ///
    /// - Parameters:
    ///   - descriptor: an open descriptor, such as `STDIN_FILENO`.
    ///   - name: what the descriptor is, for messages: `standard input`.
    ///   - inference: what to infer, with which name and records path.
    ///   - maxBody: the most bytes read; the same 64 MiB as a URL's by default.
    /// - Throws: ``FetchError`` when the descriptor cannot be read (closed, a directory) or holds more than
    ///   `maxBody`; ``InferenceError`` when the bytes give no endpoint.
    package static func infer(
        descriptor: Int32, name: String, _ inference: EndpointInference,
        maxBody: Int = EndpointConfiguration.defaultMaxBody
    ) throws -> (endpoint: InferredEndpoint, shapes: InferredShapes) {
        try inference.infer(DescriptorReader.readAll(descriptor, name: name, limit: maxBody))
    }
}
