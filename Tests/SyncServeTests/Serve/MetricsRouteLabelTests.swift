import Foundation
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncServe

/// `syncd_http_requests_total` labels a request that no route took `route="unmatched"`, whether it was answered
/// 404 (no such path) or 405 (a method other than GET and HEAD): never Hummingbird's internal "NotFound".
@Suite("read API: metrics route labels")
struct MetricsRouteLabelTests {
    @Test("a 404 and a 405 are counted under route=\"unmatched\"")
    func unmatched() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            #expect(try await api.get("/v1/endpoints", method: "POST").status == 405)
            #expect(try await api.get("/nowhere").status == 404)
            let lines = Set(try await api.get("/metrics").body.split(separator: "\n").map(String.init))
            #expect(lines.contains(#"syncd_http_requests_total{route="unmatched",status="405"} 1"#))
            #expect(lines.contains(#"syncd_http_requests_total{route="unmatched",status="404"} 1"#))
            #expect(!lines.contains { $0.contains(#"route="NotFound""#) })
        }
    }
}
