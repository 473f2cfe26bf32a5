import Foundation
import SampleUpstream
import SyncTesting

@testable import SyncCore

/// Python's `tomllib` (the standard library's TOML 1.0 reader since 3.11) as an oracle: each document is read by
/// both, and the two must agree on whether it is TOML and, when it is, on every key, type and value.
///
/// Values are compared in a canonical form both sides print: strings and keys as UTF-8 in hex, floats as their bit
/// pattern, dates and times by kind only (syncd keeps them as written). Where tomllib departs from TOML 1.0 or from
/// a choice syncd made, the script says so and counts tomllib's answer as a refusal: an integer outside 64 bits (the
/// specification says it must be refused; tomllib keeps it), a float literal too large for a `Double` (tomllib makes
/// it infinite; syncd refuses it). A byte order mark, which tomllib reads as a character, is removed for it.
enum TOMLOracle {
    /// A document on which the two disagree.
    struct Disagreement: CustomStringConvertible {
        var document: String
        var tomllib: String
        var ours: String

        var description: String {
            "document \(document.debugDescription): tomllib \(tomllib), TOMLReader \(ours)"
        }
    }

    static var isAvailable: Bool {
        (try? run(["import tomllib"])) != nil
    }

    /// Every document on which the two readers disagree.
    static func disagreements(_ documents: [String]) throws -> [Disagreement] {
        let cases = documents.map { document -> [String: Any] in
            let ours: Any
            do {
                ours = canonical(.table(try TOMLReader.read(document).root))
            } catch {
                ours = NSNull()
            }
            return ["doc": hex(document), "ours": ours]
        }
        let directory = try TemporaryDirectory()
        let input = directory.file("cases.json")
        try JSONSerialization.data(withJSONObject: cases)
            .write(to: URL(fileURLWithPath: input))
        let output = try run([script, input])
        let found = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: String]] ?? []
        return found.map {
            Disagreement(document: $0["doc"] ?? "", tomllib: $0["tomllib"] ?? "", ours: $0["ours"] ?? "")
        }
    }

    static func canonical(_ value: TOMLValue) -> String {
        switch value {
        case .string(let text): #"{"string":"\#(hex(text))"}"#
        case .integer(let number): #"{"integer":"\#(number)"}"#
        case .float(let number): #"{"float":"\#(number.isNaN ? "nan" : String(number.bitPattern, radix: 16))"}"#
        case .boolean(let flag): #"{"bool":\#(flag)}"#
        case .dateTime: #"{"datetime":""}"#
        case .array(let elements): "[" + elements.map(canonical).joined(separator: ",") + "]"
        case .table(let table):
            "{"
                + table.keys.map { #""k\#(hex($0))":"# + canonical(table[$0] ?? .boolean(false)) }
                .joined(separator: ",") + "}"
        }
    }

    private static func hex(_ text: String) -> String {
        text.utf8.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    private static let script = #"""
        import datetime, json, struct, sys, tomllib
        class OutOfRange(Exception): pass
        def canon(v):
            if isinstance(v, bool): return {"bool": v}
            if isinstance(v, int):
                if not -2**63 <= v < 2**63: raise OutOfRange()
                return {"integer": str(v)}
            if isinstance(v, float):
                if v in (float("inf"), float("-inf")) and "inf" not in doc: raise OutOfRange()
                return {"float": "nan" if v != v else format(struct.unpack("<Q", struct.pack("<d", v))[0], "x")}
            if isinstance(v, str): return {"string": v.encode().hex()}
            if isinstance(v, (datetime.datetime, datetime.date, datetime.time)): return {"datetime": ""}
            if isinstance(v, list): return [canon(x) for x in v]
            return {"k" + k.encode().hex(): canon(x) for k, x in v.items()}
        bad = []
        for case in json.load(open(sys.argv[1])):
            doc = bytes.fromhex(case["doc"]).decode()
            try:
                expected = canon(tomllib.loads(doc.removeprefix("\ufeff")))
            except (tomllib.TOMLDecodeError, ValueError, OutOfRange):
                expected = None
            ours = None if case["ours"] is None else json.loads(case["ours"])
            if expected != ours:
                bad.append({"doc": doc, "tomllib": json.dumps(expected), "ours": json.dumps(ours)})
        json.dump(bad, sys.stdout)
        """#

    /// `python3 -c SCRIPT ARGS…`, or `python3 -c LINE` for one line; throws when it fails.
    private static func run(_ arguments: [String]) throws -> String {
        let process = try ChildProcess.spawn("/usr/bin/env", ["python3", "-c"] + arguments, standardOutput: .pipe)
        let data = process.readOutputToEnd()
        guard process.waitBlocking() == 0 else { throw OracleError() }
        return String(decoding: data, as: UTF8.self)
    }

    private struct OracleError: Error {}
}
