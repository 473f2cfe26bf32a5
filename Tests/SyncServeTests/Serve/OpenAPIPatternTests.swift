import Foundation
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncServe

/// The document's patterns describe exactly what the read API takes: schemathesis sends what they match and expects
/// no 400, and what they do not match and expects one.
@Suite("read API: the OpenAPI document's patterns")
struct OpenAPIPatternTests {
    /// The `pattern` of a parameter in `components.parameters`, read as JSON Schema reads it (by code point).
    static func pattern(_ key: String, in document: [String: Any]) throws -> (String, Regex<AnyRegexOutput>) {
        let parameters = (document["components"] as? [String: Any])?["parameters"] as? [String: Any]
        let parameter = try #require(parameters?[key] as? [String: Any], "\(key)")
        let schema = try #require(parameter["schema"] as? [String: Any])
        #expect(schema["maxLength"] as? Int == QueryLimits.valueScalars, "\(key)")
        let name = try #require(parameter["name"] as? String)
        return (name, try Regex(try #require(schema["pattern"] as? String)).matchingSemantics(.unicodeScalar))
    }

    static func encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
    }

    static let order = (
        Array(repeating: "id", count: QueryLimits.orderItems).joined(separator: ","),
        Array(repeating: "id", count: QueryLimits.orderItems + 1).joined(separator: ",")
    )

    static let samples: [(String, [String])] = [
        (
            "users.id",
            [
                "eq.1", "eq.+1", "eq.-0", "eq.007", "eq.9223372036854775807", "eq.9223372036854775808",
                "eq.-9223372036854775808", "eq.-9223372036854775809", "eq.1.5", "eq.", "eq. 1", "in.(1, 2 ,\"3\")",
                "in.(1,x)", "in.()", "in.(,)", "not.is.NULL", "is.nil", "like.*1*", "ilike.\\", "gt.0x10", "lt.1e3",
                "not.not.eq.1", "eq.1\u{301}",
            ]
        ),
        ("users.active", ["eq.true", "eq.TRUE", "eq.1", "eq.0", "eq.2", "eq.yes", "in.(true,False)", "is.fAlse"]),
        (
            "users.name",
            [
                "eq.", "eq.a,b", "in.(a\u{301},\"b,c\" , d)", "in.(\"a\"b)", "in.(\"a", "neq.\r\n", "in.(\u{600})",
                "in.(\u{301}x)", "in.(a,\u{301}b)", "in.(\"\\\"\")", "in.(\"\\", "between.1", "like.a\\", "is.",
            ]
        ),
        (
            "users.select",
            ["", "*", " * ", "id,name", "id, name\t", "id,id", "id,name,id", "id,,name", "nope", "id,*", " ", "ID"]
        ),
        (
            "users.order",
            [
                "", "id", "id.desc.nullsfirst", "id.nullslast", "id.nullsfirst.desc", "id.asc.desc", "id,", ",id",
                "nope.desc", "id.", order.0, order.1,
            ]
        ),
    ]

    @Test("each query parameter's pattern matches exactly the values the read API answers without a 400")
    func patternsAreTheParsers() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let document = try await OpenAPIDocumentTests.document(api)
            for (key, values) in Self.samples {
                let (name, regex) = try Self.pattern(key, in: document)
                for value in values {
                    let matches = value.wholeMatch(of: regex) != nil
                    let answer = try await api.get("/v1/endpoints/users/records?\(name)=\(Self.encoded(value))")
                    #expect(answer.status == (matches ? 200 : 400), "\(name)=\(value.debugDescription): \(answer.body)")
                }
            }
            let (name, regex) = try Self.pattern("after", in: document)
            for value in [
                "0.d.0", "1.r.1", "007.r.0", "+1.r.1", "1.r.-1", "1.x.1", "9223372036854775807.d.9223372036854775807",
                "9223372036854775808.r.1", "1.r", "", "1.r.1\u{301}",
            ] {
                let matches = value.wholeMatch(of: regex) != nil
                let answer = try await api.get("/v1/endpoints/users/changes?\(name)=\(Self.encoded(value))")
                #expect(answer.status == (matches ? 200 : 400), "after=\(value.debugDescription): \(answer.body)")
            }
            // Changes after version 0 exist: a long poll that is valid answers at once.
            let (waitName, waitRegex) = try Self.pattern("wait", in: document)
            for value in [
                "0s", "1s", "50s", "000050s", "0000050s", "51s", "0ms", "500ms", "50000ms", "050000ms", "50001ms",
                "999999ms", "1000000ms", "ms", "s", "1m", "-1s", "1.5s", "+1s", "1S", "1 s", "30s\u{301}",
            ] {
                let matches = value.wholeMatch(of: waitRegex) != nil
                let answer = try await api.get("/v1/endpoints/users/changes?since=0&\(waitName)=\(Self.encoded(value))")
                #expect(answer.status == (matches ? 200 : 400), "wait=\(value.debugDescription): \(answer.body)")
            }
        }
    }

    @Test("a value's pattern matches exactly what its conversion reads")
    func valuePatterns() throws {
        let integer = try Regex(QueryGrammar.integer).matchingSemantics(.unicodeScalar)
        for text in [
            "0", "+0", "-0", "0009", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
            "-9223372036854775809", "19999999999999999999", "1e3", "", "-", "+", " 1", "١",
        ] {
            #expect((text.wholeMatch(of: integer) != nil) == (Int64(text) != nil), "\(text)")
        }
        let real = try Regex(QueryGrammar.real).matchingSemantics(.unicodeScalar)
        for text in [
            "1", "1.", ".5", "-.5e-3", "+1E+400", "1e", "1e+", ".", "-", "inf", "nan", "0x1p3", "1.5.5", "1_0", "",
        ] {
            #expect((text.wholeMatch(of: real) != nil) == QueryGrammar.isReal(text), "\(text)")
        }
        let boolean = try Regex(QueryGrammar.boolean).matchingSemantics(.unicodeScalar)
        let configuration = try SyncConfiguration.parse(
            """
            [[endpoint]]
            name = "flags"
            url = "https://api.example.com/flags"
            records = "$"
            primary_key = ["id"]

            [endpoint.columns]
            id = { path = "id", type = "integer" }
            flag = { path = "flag", type = "boolean" }
            """, sourcePath: "syncd.toml")
        let endpoint = try #require(configuration.plans.first)
        let column = try #require(endpoint.columns.first { $0.name == "flag" })
        for text in ["true", "TrUe", "FALSE", "1", "0", "2", "yes", "", "true "] {
            let converted = try? RecordOperand.value(text, for: column, of: endpoint)
            #expect((text.wholeMatch(of: boolean) != nil) == (converted != nil), "\(text)")
        }
    }
}
