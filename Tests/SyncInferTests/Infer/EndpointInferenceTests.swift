import Testing

@testable import SyncCore
@testable import SyncInfer

@Suite("Inferring an endpoint from a response")
struct EndpointInferenceTests {
    func infer(_ json: String, records: String? = nil) throws -> InferredEndpoint {
        let path = try records.map { text in try JSONPath(parsing: text) }
        return try EndpointInference(name: "items", url: "https://example.com/items", recordsPath: path)
            .infer(Array(json.utf8)).endpoint
    }

    func column(_ endpoint: InferredEndpoint, _ name: String) throws -> InferredColumn {
        try #require(endpoint.columns.first { $0.name == name }, "no column \(name) in \(endpoint.columns)")
    }

    @Test("scalars get integer, real, boolean, timestamp and text; arrays and mixed values json")
    func types() throws {
        let endpoint = try infer(
            """
            [{"id": 1, "n": 2, "x": 1.5, "ok": true, "at": "2024-05-01T10:00:00Z", "day": "2024-05-01",
              "s": "a", "tags": ["a"], "mixed": 1},
             {"id": 2, "n": 3, "x": 2, "ok": false, "at": "2024-05-01T10:00:00+02:00", "day": "2024-06-01",
              "s": "2024-05-01", "tags": [], "mixed": "one"}]
            """)
        let types = endpoint.columns.map { "\($0.name):\($0.type.rawValue)" }
        #expect(
            types == [
                "id:integer", "n:integer", "x:real", "ok:boolean", "at:timestamp", "day:timestamp", "s:text",
                "tags:json", "mixed:json",
            ])
        #expect(endpoint.recordsPath == .root)
        #expect(endpoint.recordCount == 2)
    }

    @Test("a column is required only when present and non-null in every record")
    func required() throws {
        let endpoint = try infer(#"[{"id": 1, "a": 1, "b": null, "c": 1}, {"id": 2, "a": 2, "b": 2}]"#)
        #expect(try column(endpoint, "a").required)
        #expect(try !column(endpoint, "b").required)
        #expect(try !column(endpoint, "c").required)
        #expect(try column(endpoint, "b").type == .integer)
    }

    @Test("nested objects are flattened to three keys, snake_cased; deeper ones are json")
    func nested() throws {
        let endpoint = try infer(
            #"[{"id": 1, "address": {"zipCode": "1", "geo": {"lat": 1.5, "deep": {"x": 1}}}, "HTTPServer": "a"}]"#)
        #expect(
            endpoint.columns.map(\.name) == [
                "id", "address_zip_code", "address_geo_lat", "address_geo_deep", "http_server",
            ])
        #expect(try column(endpoint, "address_geo_lat").path.description == "address.geo.lat")
        #expect(try column(endpoint, "address_geo_deep").type == .json)
    }

    @Test("names that collide or start badly are made unique and valid")
    func columnNames() throws {
        let endpoint = try infer(#"[{"id": 1, "a_b": 1, "aB": 2, "1st": 3, "é": 4, "x-y": 5}]"#)
        #expect(endpoint.columns.map(\.name) == ["id", "a_b", "a_b_2", "c_1st", "c", "x_y"])
        #expect(try column(endpoint, "x_y").path.description == "x-y")
    }

    @Test("past 40 columns the rest are left out and listed")
    func columnLimit() throws {
        let members = (0..<45).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        let endpoint = try infer("[{\(members)}]")
        #expect(endpoint.columns.count == 40)
        #expect(endpoint.leftOut.map(\.description) == ["k40", "k41", "k42", "k43", "k44"])
    }

    @Test(
        "the primary key is a unique key-like column, the shallowest and id first, nested too; a merely unique one never",
        arguments: [
            (#"[{"name": "a", "id": 1}, {"name": "b", "id": 2}]"#, "id"),
            (#"[{"id": 1, "user_id": 5}, {"id": 1, "user_id": 6}]"#, "user_id"),
            (#"[{"n": 1, "userId": 5}, {"n": 2, "userId": 6}]"#, "user_id"),
            (#"[{"ok": true, "n": 1, "name": "a"}, {"ok": false, "n": 1, "name": "b"}]"#, nil),
            (#"[{"id": 1, "x": 1}, {"id": 1, "x": 2}]"#, nil),
            (#"[{"sku": "a", "qty": 1}, {"sku": "b", "qty": 2}]"#, "sku"),
            (#"[{"n": 1}, {"n": 1}]"#, nil),
            (#"[{"id": 1}, {"id": null}]"#, nil),
            (#"[{"at": 1, "repo": {"name": "a", "id": 5}}, {"at": 2, "repo": {"name": "b", "id": 6}}]"#, "repo_id"),
            (#"[{"a": {"node_id": "x", "id": 1}}, {"a": {"node_id": "y", "id": 2}}]"#, "a_id"),
            (#"[{"a": {"b": {"id": 1}, "key": "k"}}, {"a": {"b": {"id": 2}, "key": "l"}}]"#, "a_key"),
            (#"[{"user_id": 1, "repo": {"id": 5}}, {"user_id": 2, "repo": {"id": 6}}]"#, "user_id"),
            (#"[{"repo": {"name": "a"}}, {"repo": {"name": "b"}}]"#, nil),
            (#"[{"repo": {"id": 5}}, {"repo": {"id": 5}}]"#, nil),
            (#"[{"repo": {"id": 5}}, {"repo": {"id": null}}]"#, nil),
            (#"[{"repo": {"id": 5}}, {"n": 1}]"#, nil),
            (#"[{"tags": [{"id": 1}]}, {"tags": [{"id": 2}]}]"#, nil),
        ] as [(String, String?)])
    func primaryKey(json: String, expected: String?) throws {
        let endpoint = try infer(json)
        #expect(endpoint.primaryKey == expected)
        if let expected { #expect(try column(endpoint, expected).required) }
    }

    @Test("the records are the root array, else the largest array of objects; --records overrides")
    func recordsPath() throws {
        let envelope = #"{"meta": {"n": 3}, "tags": [{"t": 1}], "data": {"items": [{"id": 1}, {"id": 2}]}}"#
        let found = try infer(envelope)
        #expect(found.recordsPath?.description == "data.items")
        #expect(found.otherCandidates.map(\.path.description) == ["tags"])
        #expect(try infer(envelope, records: "tags").recordsPath?.description == "tags")
        #expect(try infer(#"{"results": [{"a": 1}]}"#).recordsPath?.description == "results")
        #expect(try infer(#"{"pages": [{"items": [{"a": 1}]}]}"#, records: "pages[0].items").recordCount == 1)
    }

    @Test("an object without an array of objects is a document")
    func document() throws {
        let endpoint = try infer(#"{"flags": {"beta": true}, "names": ["a"]}"#)
        #expect(endpoint.isDocument)
        #expect(
            EndpointStanza.render(endpoint).hasSuffix(
                "[[endpoint]]\nname = \"items\"\nurl = \"https://example.com/items\"\n"))
    }

    @Test(
        "bodies without records or not JSON are refused with one sentence",
        arguments: [
            ("[]", InferenceError.noRecords, "the response is an empty array, with no records to infer columns from"),
            ("{\"a\": [1,}", InferenceError.notJSON, "the response is not valid JSON: at byte 9 (line 1, column 10)"),
            ("", InferenceError.notJSON, "the response is not valid JSON: it is empty"),
        ])
    func refused(json: String, error: InferenceError, prefix: String) throws {
        let thrown = #expect(throws: InferenceError.self) { try infer(json) }
        #expect(thrown == error)
        #expect(thrown?.description.hasPrefix(prefix) == true, "\(thrown?.description ?? "")")
    }

    @Test("a --records path that is not an array of objects says what it is")
    func wrongRecordsPath() throws {
        let thrown = #expect(throws: InferenceError.self) { try infer(#"{"a": {"b": 1}}"#, records: "a") }
        #expect(thrown?.description == "\"a\" is an object, not an array of objects")
    }

    @Test(
        "endpoint names come from the URL or file name",
        arguments: [
            ("https://example.com/api/users?page=2", "users"), ("file:///tmp/Base-Users.json", "base_users"),
            ("https://example.com/", "example"), ("https://example.com/v1/42", "v1"), ("", "endpoint"),
            ("file:///tmp/syncd_x.json", "api_syncd_x"),
        ])
    func endpointNames(location: String, expected: String) {
        #expect(EndpointInference.defaultName(for: location) == expected)
    }

    @Test("the stanza names records, key and typed columns")
    func stanza() throws {
        let endpoint = try infer(#"[{"id": 1, "name": "a\"b", "geo": {"lat": 1.5}}, {"id": 2, "name": "c"}]"#)
        #expect(
            EndpointStanza.render(endpoint) == """
                # 2 records at "$": every one was read to infer these columns.
                [[endpoint]]
                name = "items"
                url = "https://example.com/items"
                records = "$"
                primary_key = ["id"]

                [endpoint.columns]
                id = { path = "id", type = "integer", required = true }
                name = { path = "name", type = "text", required = true }
                geo_lat = { path = "geo.lat", type = "real" }

                """)
    }
}
