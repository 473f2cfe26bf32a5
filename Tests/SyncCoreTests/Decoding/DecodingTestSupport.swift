import Testing

@testable import SyncCore

/// A record as a test looks at it: the decoder reuses its storage, so tests keep copies.
struct SeenRecord: Equatable {
    var index: Int
    var raw: String
    var values: [ColumnValue]
    var problems: [DecodingProblem]
    var isRejected: Bool
}

/// A column for a test decoder: `("lat", "address.geo.lat", .real)`.
struct ColumnFixture {
    var name: String
    var path: String
    var type: ColumnType = .text
    var required = false
}

func makeRecordDecoder(
    records: String = "$",
    columns: [ColumnFixture],
    keyColumns: [Int] = [],
    strict: Bool = false
) throws -> RecordDecoder {
    let specs = try columns.map { column in
        ColumnSpec(
            name: column.name, path: try JSONPath(parsing: column.path), type: column.type, required: column.required)
    }
    return RecordDecoder(
        recordsPath: try JSONPath(parsing: records), columns: specs, keyColumns: keyColumns, strict: strict)
}

extension RecordDecoder {
    /// Decodes a body given as text, keeping a copy of every record.
    func records(in json: String) throws -> [SeenRecord] {
        try records(in: Array(json.utf8))
    }

    func records(in bytes: [UInt8]) throws -> [SeenRecord] {
        var seen: [SeenRecord] = []
        let count = try decode(bytes) { record in
            seen.append(
                SeenRecord(
                    index: record.index,
                    raw: String(decoding: bytes[record.raw], as: UTF8.self),
                    values: record.values,
                    problems: record.problems,
                    isRejected: record.isRejected
                )
            )
        }
        #expect(count == seen.count)
        return seen
    }

    /// The error a body gives, or nil when it decodes.
    func bodyError(_ json: String) -> BodyDecodingError? {
        bodyError(Array(json.utf8))
    }

    func bodyError(_ bytes: [UInt8]) -> BodyDecodingError? {
        do {
            _ = try decode(bytes) { _ in }
            return nil
        } catch let error as BodyDecodingError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    /// `decodeRecord` over a string's UTF-8.
    func record(_ json: String, index: Int = 0) -> DecodedRecord {
        Array(json.utf8).withUnsafeBytes { decodeRecord($0, index: index) }
    }
}

/// The one value of a one-column decoder for `{"v": literal}`, and the problems met.
func convertValue(_ literal: String, to type: ColumnType, strict: Bool = false) throws -> (
    ColumnValue, [DecodingProblem]
) {
    let decoder = try makeRecordDecoder(columns: [ColumnFixture(name: "v", path: "v", type: type)], strict: strict)
    let records = try decoder.records(in: "[{\"v\": \(literal)}]")
    let record = try #require(records.first)
    return (try #require(record.values.first), record.problems)
}
