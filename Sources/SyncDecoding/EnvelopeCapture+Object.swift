// The top-level values of a small JSON object read whole (an OAuth2 token answer, a stored count object): the
// grammar checked first, then the values at a few paths captured as a body's envelope would be.

extension EnvelopeCapture {
    /// The values of `bytes` at `paths` (``value(at:)``), when `bytes` are one JSON object; nil for anything else
    /// (not JSON, or another kind of value).
    package static func object(_ bytes: [UInt8], paths: [JSONPath]) -> EnvelopeCapture? {
        let isObject = bytes.withUnsafeBytes { raw -> Bool in
            guard (try? JSONDocumentCheck.validate(raw)) != nil else { return false }
            var scanner = JSONScanner(raw)
            scanner.skipByteOrderMark()
            scanner.skipWhitespace()
            return !scanner.isAtEnd && raw[scanner.position] == UInt8(ascii: "{")
        }
        guard isObject else { return nil }
        var envelope = EnvelopeCapture(paths: paths)
        bytes.withUnsafeBufferPointer { envelope.feed($0) }
        envelope.finish()
        return envelope
    }
}
