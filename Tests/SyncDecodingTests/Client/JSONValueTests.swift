import Foundation
import SyncCore
import Testing

// JSONValue: nested values by key, index and syncd's path syntax, without types that mirror the JSON.

@Suite("JSONValue", .timeLimit(.minutes(1)))
struct JSONValueTests {
    private let document = """
        {"items": [{"values": [{"name": "first", "n": 9007199254740993, "x": 1.5, "ok": true, "none": null}]}],
         "meta": {"next-page": "p2"}}
        """

    @Test("keys, indices and syncd's path syntax reach nested values")
    func paths() throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(document.utf8))
        #expect(value["items"]?[0]?["values"]?[0]?["name"]?.stringValue == "first")
        #expect(value[path: "items[0].values[0].name"] == .string("first"))
        #expect(value[path: #"meta["next-page"]"#]?.stringValue == "p2")
        #expect(value[path: "$"] == value)
        #expect(value[path: "items[1]"] == nil)
        #expect(value[path: "items[x]"] == nil)
        #expect(value[path: "items[0].values[0].ok"]?.boolValue == true)
        #expect(value[path: "items[0].values[0].none"]?.isNull == true)
    }

    @Test("numbers stay exact, and encoding then decoding gives the same value")
    func numbersAndRoundTrip() throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(document.utf8))
        #expect(value[path: "items[0].values[0].n"] == .integer(9_007_199_254_740_993))
        #expect(value[path: "items[0].values[0].x"] == .double(1.5))
        #expect(value[path: "items[0].values[0].x"]?.integerValue == nil)
        let again = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
        #expect(again == value)
    }
}
