package import SyncCore
import Testing

/// A record as a test looks at it: the decoder reuses its storage, so tests keep copies.
package struct SeenRecord: Equatable {
    package var index: Int
    package var raw: String
    package var values: [ColumnValue]
    package var problems: [DecodingProblem]
    package var isRejected: Bool

    package init(index: Int, raw: String, values: [ColumnValue], problems: [DecodingProblem], isRejected: Bool) {
        self.index = index
        self.raw = raw
        self.values = values
        self.problems = problems
        self.isRejected = isRejected
    }
}

/// A column for a test decoder: `("lat", "address.geo.lat", .real)`.
package struct ColumnFixture {
    package var name: String
    package var path: String
    package var type: ColumnType = .text
    package var required = false

    package init(name: String, path: String, type: ColumnType = .text, required: Bool = false) {
        self.name = name
        self.path = path
        self.type = type
        self.required = required
    }
}

package func makeRecordDecoder(
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
    package func records(in json: String) throws -> [SeenRecord] {
        try records(in: Array(json.utf8))
    }

    package func records(in bytes: [UInt8]) throws -> [SeenRecord] {
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
    package func bodyError(_ json: String) -> BodyDecodingError? {
        bodyError(Array(json.utf8))
    }

    package func bodyError(_ bytes: [UInt8]) -> BodyDecodingError? {
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
    package func record(_ json: String, index: Int = 0) -> DecodedRecord {
        Array(json.utf8).withUnsafeBytes { decodeRecord($0, index: index) }
    }
}

/// The one value of a one-column decoder for `{"v": literal}`, and the problems met.
package func convertValue(_ literal: String, to type: ColumnType, strict: Bool = false) throws -> (
    ColumnValue, [DecodingProblem]
) {
    let decoder = try makeRecordDecoder(columns: [ColumnFixture(name: "v", path: "v", type: type)], strict: strict)
    let records = try decoder.records(in: "[{\"v\": \(literal)}]")
    let record = try #require(records.first)
    return (try #require(record.values.first), record.problems)
}
