import SyncSupport

/// Whether a document endpoint's body must be JSON, and whether it is: a body sent as `application/json` or
/// `…+json` that does not parse (a truncated or garbled answer) must not replace the stored document.
package enum JSONDocumentCheck {
    /// Whether the `Content-Type` field value names JSON: `application/json` or a `+json` suffix (RFC 6839),
    /// parameters and case aside.
    package static func isJSON(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let type = mediaType.trimmingASCIISpaces.lowercased()
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }

    /// Checks that `bytes` hold exactly one JSON value (RFC 8259), whitespace and a byte order mark aside.
    ///
    /// - Throws: ``BodyDecodingError`` saying where the body breaks off or goes wrong.
    package static func validate(_ bytes: UnsafeRawBufferPointer) throws(BodyDecodingError) {
        var scanner = JSONScanner(bytes)
        do throws(JSONSyntaxError) {
            scanner.skipByteOrderMark()
            scanner.skipWhitespace()
            guard !scanner.isAtEnd else { throw JSONSyntaxError(.empty, at: scanner.position) }
            try scanner.skipValue(depth: 0, inside: .topLevel)
            scanner.skipWhitespace()
            guard scanner.isAtEnd else { throw JSONSyntaxError(.trailingData, at: scanner.position) }
        } catch {
            throw BodyDecodingError(error, in: bytes.assumingMemoryBound(to: UInt8.self))
        }
    }
}
