internal import FoundationEssentials
internal import NIOCore
package import SyncCore
import SyncHTTP

/// Where `syncd infer` reads a response from: a URL fetched with syncd's own transports, with their TLS, timeout
/// and body size rules, or bytes already read (a file given by path, standard input).
package enum InferenceSource {
    /// The `file://` URL of a path, made absolute against the current directory.
    package static func fileURL(path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.absoluteString
    }

    /// The pages `syncd infer` reads by default.
    package static let defaultPages = 3
    /// The pages it may be asked to read (`--pages`).
    package static let pageRange = 1...20
    /// The most bytes read over all pages: past it, the walk stops (the first page may be as large as `maxBody`).
    /// The summary of the records grows with them, so this bounds the memory a walk takes.
    package static let maximumSampleBytes = 128 << 20
    /// The most time the whole walk takes, the first page included: a page asked for after it is not, and a page
    /// is given what is left of it as its timeout, so that 20 slow pages do not keep a terminal waiting 10 minutes.
    package static let walkLimit = Duration.seconds(120)

    /// Fetches a 2xx body and infers the endpoint from it, reading the body where it was received; over HTTP, the
    /// response's `Link` fields go to the inference, so that a `rel="next"` link proposes link pagination, and the
    /// pagination proposed, when it is sure, is followed for up to `pages` pages before the columns are decided.
    ///
    /// - Parameters:
    ///   - url: an http, https or file URL.
    ///   - inference: what to infer, with which name and records path.
    ///   - client: the process's HTTP client, which the caller shuts down.
    ///   - pages: the most pages read, in ``pageRange``; the default is ``defaultPages``.
    ///   - timeout: the time each request may take; syncd's default is 30 s.
    ///   - maxBody: the largest body accepted; syncd's default is 64 MiB.
    ///   - maxSampleBytes: the most bytes read over all pages; the default is ``maximumSampleBytes``.
    ///   - walkLimit: the most time the walk takes; the default is ``walkLimit``.
    ///   - now: the time, injected so that tests control it.
    /// - Throws: ``InferenceError``: ``InferenceError/unreadable`` when no answer came or the status is not 2xx
    ///   (never quoting the URL, which may carry a secret in its query), another code when the body gives no
    ///   endpoint. A later page that cannot be read ends the walk instead, with ``InferredEndpoint/stopReason``
    ///   saying why.
    package static func infer(
        url: String, _ inference: EndpointInference, client: APIClient, pages: Int = defaultPages,
        timeout: Duration = EndpointConfiguration.defaultTimeout, maxBody: Int = EndpointConfiguration.defaultMaxBody,
        maxSampleBytes: Int = maximumSampleBytes, walkLimit: Duration = InferenceSource.walkLimit,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) async throws -> (endpoint: InferredEndpoint, shapes: InferredShapes) {
        do {
            let limits = WalkLimits(
                timeout: timeout, maxBody: maxBody, maxSampleBytes: maxSampleBytes, time: walkLimit,
                deadline: now() + walkLimit, now: now)
            return try await walk(url: url, inference, client: client, pages: pages, limits: limits)
        } catch let error as FetchError {
            throw InferenceError.unreadable(error)
        }
    }

    /// What bounds a walk: each request's, each body's and all bodies' limits, and the time of it all.
    private struct WalkLimits {
        var timeout: Duration
        var maxBody: Int
        var maxSampleBytes: Int
        var time: Duration
        var deadline: ContinuousClock.Instant
        var now: @Sendable () -> ContinuousClock.Instant

        /// The time a request may take now: its own timeout, or what is left of the walk's when that is less; nil
        /// once the walk's time is up.
        var requestTimeout: Duration? {
            let left = now().duration(to: deadline)
            return left > .zero ? min(timeout, left) : nil
        }
    }

    /// ``infer(url:_:client:pages:timeout:maxBody:maxSampleBytes:walkLimit:now:)``, its fetch's failure still a
    /// ``FetchError``.
    private static func walk(
        url: String, _ inference: EndpointInference, client: APIClient, pages: Int, limits: WalkLimits
    ) async throws -> (endpoint: InferredEndpoint, shapes: InferredShapes) {
        let isFile = url.lowercased().hasPrefix("file:")
        let (timeout, maxBody) = (limits.timeout, limits.maxBody)
        let response = try await fetch(url, client: client, timeout: timeout, maxBody: maxBody)
        var inference = inference
        if !isFile { inference.links = response.links }
        let first = response.body.withUnsafeReadableBytes { bytes in
            Result { () throws(InferenceError) in try inference.sample(bytes) }
        }
        var sample = try first.get()
        guard !isFile, pages > 1, let follow = sample.pagination?.follow else {
            return sample.result(morePages: sample.mayContinueAfterFirst)
        }
        var walk = SampleWalk(
            follow: follow, url: url, pages: pages,
            budget: SampleBudget(
                maxBody: maxBody, maxSampleBytes: limits.maxSampleBytes, firstPage: response.body.readableBytes),
            firstHash: hash(response.body))
        var facts = sample.firstFacts
        while let next = walk.next(after: facts, pagesRead: sample.pagesRead) {
            guard let pageTimeout = limits.requestTimeout else {
                walk.stop(because: "the walk took the \(limits.time.components.seconds) s it may take")
                break
            }
            guard let page = await fetchPage(next, client: client, timeout: pageTimeout, walk: &walk) else { break }
            let added = page.body.withUnsafeReadableBytes { bytes in
                Result { () throws(InferenceError) in try sample.add(bytes) }
            }
            switch added {
            case .success(let pageFacts?):
                facts = pageFacts
                facts.url = next
                facts.links = page.links
            case .success(nil):
                walk.stop(because: "it has no array of objects at the records path")
            case .failure(let error):
                walk.stop(because: error.description)
            }
        }
        var result = sample.result(morePages: walk.morePages)
        result.endpoint.stopReason = walk.stopReason
        return result
    }

    /// Fetches a later page within the walk's budget; nil, with the walk stopped and the reason noted, when it
    /// cannot be read, is larger than what is left, or repeats the page before byte for byte.
    private static func fetchPage(
        _ url: String, client: APIClient, timeout: Duration, walk: inout SampleWalk
    ) async -> FetchResponse? {
        let limit = walk.budget.nextLimit
        do {
            let response = try await fetch(url, client: client, timeout: timeout, maxBody: limit)
            return walk.accept(hash: hash(response.body), count: response.body.readableBytes) ? response : nil
        } catch let error as FetchError where error == .bodyTooLarge && walk.budget.isSampleLimit(limit) {
            walk.stop(because: "it would pass the \(walk.budget.boundText) read over all pages at most")
        } catch let error as FetchError {
            walk.stop(because: error.description)
        } catch {
            walk.stop(because: "it could not be read")
        }
        return nil
    }

    /// The hash of a page's bytes, to tell a page that repeats the one before.
    private static func hash(_ body: ByteBuffer) -> Int {
        body.withUnsafeReadableBytes { bytes in
            var hasher = Hasher()
            hasher.combine(bytes: bytes)
            return hasher.finalize()
        }
    }

    /// A 2xx response from the URL, by the file transport for a file URL and the client's otherwise.
    private static func fetch(_ url: String, client: APIClient, timeout: Duration, maxBody: Int) async throws
        -> FetchResponse
    {
        let request = FetchRequest(url: url, timeout: timeout, maxBody: maxBody)
        let response =
            url.lowercased().hasPrefix("file:")
            ? try await FileTransport().fetch(request) : try await client.transport.fetch(request)
        guard response.isSuccess else {
            throw FetchError.connection(
                "the server answered \(response.status) \(HTTPStatusText.reason(response.status)), not a 2xx")
        }
        return response
    }

    /// Reads a descriptor to its end (standard input for `syncd infer -`) and infers the endpoint from it.
    ///
    /// - Parameters:
    ///   - descriptor: an open descriptor, such as `STDIN_FILENO`.
    ///   - name: what the descriptor is, for messages: `standard input`.
    ///   - inference: what to infer, with which name and records path.
    ///   - maxBody: the most bytes read; the same 64 MiB as a URL's by default.
    /// - Throws: ``InferenceError``: ``InferenceError/unreadable`` when the descriptor cannot be read (closed, a
    ///   directory) or holds more than `maxBody`, another code when the bytes give no endpoint.
    package static func infer(
        descriptor: Int32, name: String, _ inference: EndpointInference,
        maxBody: Int = EndpointConfiguration.defaultMaxBody
    ) throws -> (endpoint: InferredEndpoint, shapes: InferredShapes) {
        let bytes: [UInt8]
        do {
            bytes = try DescriptorReader.readAll(descriptor, name: name, limit: maxBody)
        } catch {
            throw InferenceError.unreadable(error)
        }
        return try inference.infer(bytes)
    }
}
