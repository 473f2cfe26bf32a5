// The `query` target's second property: what the OpenAPI document says a parameter takes is what the read API takes.

internal import Foundation
import SyncCore
import SyncServe
import SyncSupport

extension QueryTarget {
    /// Each pair of the input that the document describes (a filter on a column, `select`, `order`, the change
    /// feed's `after` and `wait`) is taken alone exactly when its pattern matches it: schemathesis sends what a pattern matches
    /// and expects no 400, and what it does not and expects one. A timestamp's pattern is a subset (it would be long
    /// to list every valid date), and a quoted typed value of `in.(…)` is described without its escapes: those are
    /// left out.
    static func document(_ text: String, _ reader: RecordReader, _ fixture: QueryFixture) throws(FuzzFailure) {
        let patterns = DocumentPatterns.shared.patterns
        try require(
            ["select", "order", "after", "wait", "id", "name", "score"].allSatisfy { patterns[$0] != nil },
            "the document's patterns did not compile: \(patterns.keys.sorted())")
        for field in text.unicodeScalars.split(separator: "&") {
            guard let equals = field.firstIndex(of: "=") else { continue }
            let name = PercentDecoding.decode(Substring(field[..<equals]))
            let value = PercentDecoding.decode(Substring(field[field.index(after: equals)...]))
            guard let pattern = patterns[name] else { continue }
            let column = fixture.endpoint.columns.first { $0.name == name }
            if column?.type == .timestamp { continue }
            if let column, column.type != .text, column.type != .json, value.unicodeScalars.contains("\\") { continue }
            let alone = "\(name)=\(encoded(value))"
            guard alone.utf8.count <= 8192 else { continue }
            let matches = value.unicodeScalars.count <= 4096 && value.wholeMatch(of: pattern) != nil
            let taken = ["after", "wait"].contains(name) ? takesChanges(alone) : takesRecords(alone, reader, fixture)
            try require(
                matches == taken,
                "\(name)=\(value.debugDescription): the document's pattern \(matches ? "matches" : "refuses") it, "
                    + "the read API \(taken ? "takes" : "refuses") it")
        }
    }

    static func takesRecords(_ query: String, _ reader: RecordReader, _ fixture: QueryFixture) -> Bool {
        guard
            let parsed = try? PostgRESTQuery(
                parsing: query, for: SyncCache.Endpoint(fixture.endpoint), maxRows: QueryFixture.maxRows)
        else { return false }
        return (try? reader.records(parsed.query.base)) != nil
    }

    static func takesChanges(_ query: String) -> Bool {
        (try? ChangeFeedQuery(parsing: query, maxRows: QueryFixture.maxRows)) != nil
    }

    static func encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
    }
}

/// The patterns of the fixture's OpenAPI document, by parameter name, compiled once per process.
final class DocumentPatterns {
    /// libFuzzer runs a target on one thread, and the corpus test replays one target's files one after another.
    nonisolated(unsafe) static let shared = DocumentPatterns()

    let patterns: [String: Regex<AnyRegexOutput>]

    private init() {
        var patterns: [String: Regex<AnyRegexOutput>] = [:]
        let endpoints = (try? QueryFixture.shared.get()).map { [SyncCache.Endpoint($0.endpoint)] } ?? []
        let document = OpenAPIDocument.make(endpoints: endpoints, bearer: false)
        guard case .object(let root) = document, case .object(let components)? = root["components"],
            case .object(let parameters)? = components["parameters"]
        else {
            self.patterns = [:]
            return
        }
        for parameter in parameters.values {
            guard case .object(let fields) = parameter, case .string(let name)? = fields["name"],
                case .string("query")? = fields["in"], case .object(let schema)? = fields["schema"],
                case .string(let pattern)? = schema["pattern"],
                let regex = try? Regex(pattern).matchingSemantics(.unicodeScalar)
            else { continue }
            patterns[name] = regex
        }
        self.patterns = patterns
    }
}
