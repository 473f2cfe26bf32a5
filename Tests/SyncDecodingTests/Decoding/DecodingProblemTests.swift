import SyncTesting
import Testing

@testable import SyncCore

@Suite("Reporting problems with records")
struct DecodingProblemTests {
    /// jsonplaceholder's users, keyed by id.
    func usersDecoder(strict: Bool = false) throws -> RecordDecoder {
        try makeRecordDecoder(
            columns: [
                ColumnFixture(name: "id", path: "id", type: .integer),
                ColumnFixture(name: "email", path: "email", required: true),
                ColumnFixture(name: "lat", path: "address.geo.lat", type: .real),
            ],
            keyColumns: [0],
            strict: strict
        )
    }

    @Test("a mistyped optional column becomes NULL and is reported")
    func mistypedOptional() throws {
        let body = #"[{"id": 8, "email": "a@b.c", "address": {"geo": {"lat": "really far north"}}}]"#
        let record = try #require(try usersDecoder().records(in: body).first)
        #expect(record.values == [.integer(8), .text("a@b.c"), .null])
        #expect(!record.isRejected)
        let problem = try #require(record.problems.first)
        #expect(record.problems.count == 1)
        #expect(
            problem.summary(endpoint: "users")
                == #"users[id=8] > address.geo.lat (real): found string "really far north""#)
        #expect(problem.description == #"[id=8] > address.geo.lat (real): found string "really far north""#)
        #expect(
            problem
                == DecodingProblem(
                    recordIndex: 0,
                    recordKey: [.integer(8)],
                    recordLabel: "id=8",
                    path: "address.geo.lat",
                    column: "lat",
                    expected: "real",
                    found: #"string "really far north""#,
                    action: .nulled
                )
        )
    }

    @Test("a missing optional column or a null one is NULL without a problem")
    func missingOptional() throws {
        let body = #"[{"id": 1, "email": "a"}, {"id": 2, "email": "b", "address": {"geo": {"lat": null}}}]"#
        let records = try usersDecoder().records(in: body)
        #expect(records.map(\.values) == [[.integer(1), .text("a"), .null], [.integer(2), .text("b"), .null]])
        #expect(records.allSatisfy { $0.problems.isEmpty && !$0.isRejected })
    }

    @Test(
        "a missing, null or mistyped required column rejects the record",
        arguments: [
            (#"{"id": 8}"#, "users[id=8] > email (text): found missing"),
            (#"{"id": 8, "email": null}"#, "users[id=8] > email (text): found null"),
            (#"{"id": 8, "email": {"a": 1}}"#, "users[id=8] > email (text): found object"),
            (#"{"id": 8, "email": [1]}"#, "users[id=8] > email (text): found array"),
        ])
    func requiredColumn(_ record: String, _ summary: String) throws {
        let seen = try #require(try usersDecoder().records(in: "[\(record)]").first)
        #expect(seen.isRejected)
        #expect(seen.problems.map { $0.summary(endpoint: "users") } == [summary])
        #expect(seen.problems.map(\.action) == [.rejected])
        #expect(seen.values[1] == .null)
    }

    @Test("a key column is required even when its spec says optional; the record is then labelled by index")
    func keyColumnRequired() throws {
        let body = #"[{"id": 1, "email": "a"}, {"email": "b"}, {"id": "x", "email": "c"}, {"id": null, "email": "d"}]"#
        let records = try usersDecoder().records(in: body)
        #expect(records.map(\.isRejected) == [false, true, true, true])
        #expect(
            records.flatMap(\.problems).map { $0.summary(endpoint: "users") } == [
                "users[#1] > id (integer): found missing",
                #"users[#2] > id (integer): found string "x""#,
                "users[#3] > id (integer): found null",
            ])
        #expect(records.flatMap(\.problems).allSatisfy { $0.recordKey == nil && $0.action == .rejected })
    }

    @Test("strict mode reports what lenient mode would have converted")
    func strictProblems() throws {
        let body = #"[{"id": "8", "email": 5}]"#
        let lenient = try #require(try usersDecoder().records(in: body).first)
        #expect(lenient.values == [.integer(8), .text("5"), .null])
        #expect(lenient.problems.isEmpty)
        let strict = try #require(try usersDecoder(strict: true).records(in: body).first)
        #expect(
            strict.problems.map(\.description) == [
                #"[#0] > id (integer): found string "8""#, "[#0] > email (text): found number 5",
            ])
    }

    @Test("a composite key labels problems with every key column")
    func compositeKeyLabel() throws {
        let decoder = try makeRecordDecoder(
            columns: [
                ColumnFixture(name: "id", path: "id", type: .integer),
                ColumnFixture(name: "note", path: "note"),
                ColumnFixture(name: "org", path: "org"),
                ColumnFixture(name: "size", path: "size", type: .integer),
            ],
            keyColumns: [0, 2]
        )
        let body = #"[{"id": 8, "org": "a\"c", "note": [], "size": 1.5}]"#
        let record = try #require(try decoder.records(in: body).first)
        #expect(!record.isRejected)
        #expect(
            record.problems.map { $0.summary(endpoint: "members") } == [
                #"members[id=8,org=a"c] > note (text): found array"#,
                #"members[id=8,org=a"c] > size (integer): found number 1.5"#,
            ])
        #expect(record.problems.map(\.recordKey) == [[.integer(8), .text("a\"c")], [.integer(8), .text("a\"c")]])
        #expect(record.problems.map(\.column) == ["note", "size"])
    }

    @Test(
        "a record that is not an object is rejected at $",
        arguments: [
            ("3", "number 3"), (#""s""#, #"string "s""#), ("null", "null"), ("[1]", "array"), ("true", "boolean true"),
            ("false", "boolean false"), ("-1.5e3", "number -1.5e3"),
        ])
    func nonObjectRecord(_ literal: String, _ found: String) throws {
        let records = try usersDecoder().records(in: #"[{"id": 1, "email": "e"}, \#(literal)]"#)
        #expect(records.map(\.isRejected) == [false, true])
        let record = try #require(records.last)
        #expect(record.raw == literal)
        #expect(record.values == [.null, .null, .null])
        #expect(
            record.problems == [
                DecodingProblem(
                    recordIndex: 1,
                    recordKey: nil,
                    recordLabel: "#1",
                    path: "$",
                    column: nil,
                    expected: "object",
                    found: found,
                    action: .rejected
                )
            ])
        #expect(record.problems.first?.summary(endpoint: "users") == "users[#1] > $ (object): found \(found)")
    }

    @Test(
        "found values are shown as received and cut after 40 characters",
        arguments: [
            (#""\#(String(repeating: "a", count: 40))""#, #"string "\#(String(repeating: "a", count: 40))""#),
            (#""\#(String(repeating: "a", count: 41))""#, #"string "\#(String(repeating: "a", count: 40))…""#),
            (#""\#(String(repeating: "é", count: 45))""#, #"string "\#(String(repeating: "é", count: 40))…""#),
            (
                #""\#(String(repeating: "a", count: 39))\u00e9\u00e9""#,
                #"string "\#(String(repeating: "a", count: 39))\u00e9…""#
            ),
            (
                #""\#(String(repeating: "a", count: 39))\ud83d\ude00!""#,
                #"string "\#(String(repeating: "a", count: 39))\ud83d\ude00…""#
            ),
            (#""tab\there \"quoted\"""#, #"string "tab\there \"quoted\"""#),
            (String(repeating: "9", count: 45) + ".5", "number " + String(repeating: "9", count: 40) + "…"),
        ])
    func foundDescriptions(_ literal: String, _ found: String) throws {
        let (_, problems) = try convertValue(literal, to: .boolean, strict: true)
        #expect(problems.map(\.found) == [found])
    }

    @Test("a good record has no problems and is not rejected")
    func goodRecord() throws {
        let body = #"[{"id": 1, "email": "e", "address": {"geo": {"lat": -37.3159}}}]"#
        let record = try #require(try usersDecoder().records(in: body).first)
        #expect(record.problems.isEmpty)
        #expect(!record.isRejected)
    }

    @Test("one bad record never affects the records around it")
    func badRecordIsolated() throws {
        let body = #"[{"id": 1, "email": "a"}, {"id": 2}, 7, {"id": 3, "email": "c"}]"#
        let records = try usersDecoder().records(in: body)
        #expect(records.map(\.isRejected) == [false, true, true, false])
        #expect(records.map(\.values.first) == [.integer(1), .integer(2), .null, .integer(3)])
        #expect(records.map(\.problems.count) == [0, 1, 1, 0])
    }
}
