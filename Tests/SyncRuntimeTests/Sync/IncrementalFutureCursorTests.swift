import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// A timestamp cursor value beyond the sync's time plus a day is stored with its record but does not become the
/// cursor: one record dated 9999 must not freeze an incremental endpoint for good.
@Suite("sync: incremental cursor values in the future")
struct IncrementalFutureCursorTests {
    @Test("a value beyond now plus a day is stored, not adopted as the cursor, and reported; the run succeeds")
    func futureValue() async throws {
        try await withTestUpstream { upstream in
            // The test clock reads 2023-11-14T22:13:20Z.
            let answers = SharedValue([
                IncrementalFixture.items([
                    (1, "2023-11-14T10:00:00Z"), (2, "9999-12-31T00:00:00Z"), (3, "2023-11-15T22:13:21Z"),
                ]),
                IncrementalFixture.items([(4, "2023-11-15T22:13:20Z")]),
            ])
            upstream.route("/items") { _ in
                var list = answers.value
                let body = list.count > 1 ? list.removeFirst() : list[0]
                answers.value = list
                return jsonAnswer(body)
            }
            let incremental = #"{ param = "since", column = "updated_at", initial = "2020-01-01T00:00:00Z" }"#
            let fixture = try SyncFixture(
                toml: IncrementalFixture.toml(upstream.url("/items"), incremental: incremental))

            let first = try await fixture.sync("items")
            #expect(first.outcome == .changed && first.inserted == 3)
            #expect(try IncrementalFixture.ids(fixture) == [1, 2, 3])
            #expect(try fixture.scalar("SELECT cursor FROM syncd_endpoints") == .text("2023-11-14T10:00:00.000Z"))
            let problems = try fixture.rows(
                "SELECT record_key, column_name, action, message FROM syncd_errors ORDER BY record_index")
            #expect(problems.map { $0.text("record_key") } == ["2", "3"])
            #expect(problems.allSatisfy { $0.text("action") == "kept" && $0.text("column_name") == "updated_at" })
            #expect(
                problems.first?.text("message")
                    == "items[id=2] > updated_at (a cursor timestamp no later than 2023-11-15T22:13:20.000Z): found 9999-12-31T00:00:00.000Z (stored, not adopted as the cursor)"
            )

            // A value right at the tolerance moves the cursor.
            let second = try await fixture.sync("items")
            #expect(second.outcome == .changed && second.problems.isEmpty)
            #expect(try fixture.scalar("SELECT cursor FROM syncd_endpoints") == .text("2023-11-15T22:13:20.000Z"))
            #expect(
                upstream.requests.map { $0.query["since"] } == ["2020-01-01T00:00:00Z", "2023-11-14T10:00:00.000Z"])
        }
    }
}
