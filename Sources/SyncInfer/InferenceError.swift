import SyncCore
import SyncHTTP

/// A body `syncd infer` cannot propose an endpoint for. The ``description`` is one sentence.
package struct InferenceError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case notJSON = "not_json"
        case noRecords = "no_records"
        case unreadable
        case badRecordsPath = "bad_records_path"
    }

    private var code: Code
    package private(set) var description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// The body is not JSON; the description names the byte offset, as the sync's decoding errors do.
    package static let notJSON = InferenceError(.notJSON, "the response is not valid JSON")
    /// No array of objects was found where records were expected.
    package static let noRecords = InferenceError(.noRecords, "no array of objects was found")

    /// No answer came, the status is not 2xx, or the body is larger than allowed: nothing to infer from.
    package static let unreadable = InferenceError(.unreadable, "cannot read the response")
    /// The records path given (`--records`) is not a JSON path.
    package static let badRecordsPath = InferenceError(.badRecordsPath, "--records is not a JSON path")

    package static func == (lhs: InferenceError, rhs: InferenceError) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }

    static func notJSON(_ error: JSONSyntaxError, in bytes: UnsafeBufferPointer<UInt8>) -> Self {
        InferenceError(.notJSON, BodyDecodingError(error, in: bytes).description)
    }

    static func noRecords(_ description: String) -> Self {
        InferenceError(.noRecords, description)
    }

    /// What is wrong with a `--records` path, after the option's name.
    static func badRecordsPath(_ error: any Error) -> Self {
        InferenceError(.badRecordsPath, "--records: \(error)")
    }

    /// The fetch's failure, in its own words (which never quote the URL).
    static func unreadable(_ error: FetchError) -> Self {
        InferenceError(.unreadable, "cannot read the response: \(error.description)")
    }
}
