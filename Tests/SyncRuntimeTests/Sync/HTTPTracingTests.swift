import InMemoryTracing
import SampleUpstream
import SyncTesting
import Testing
import Tracing

@testable import SyncCore
@testable import SyncHTTP

/// AsyncHTTPClient traces each request with the tracer a program bootstrapped, and makes no spans at all for the
/// no-op one (the default, and syncd's own).
@Suite("sync: HTTP tracing")
struct HTTPTracingTests {
    @Test("a bootstrapped tracer gets a finished client span for each request; the no-op tracer none is made for")
    func spans() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", #"[{"id": 1}]"#)
            let tracer = InMemoryTracer()
            let traced = HTTPTransport(tracer: tracer)
            let request = FetchRequest(url: upstream.url("/users"))
            do {
                #expect(try await traced.fetch(request, successBody: nil).status == 200)
                #expect(try await traced.fetch(request, successBody: nil).status == 200)
            } catch {
                try? await traced.shutdown()
                throw error
            }
            try await traced.shutdown()
            let spans = tracer.finishedSpans
            #expect(spans.count == 2)
            #expect(spans.allSatisfy { $0.operationName == "GET" && $0.kind == .client })
        }
        #expect(HTTPTransport.clientTracer(NoOpTracer()) == nil)
        #expect(HTTPTransport.clientTracer(InMemoryTracer()) is InMemoryTracer)
    }
}
