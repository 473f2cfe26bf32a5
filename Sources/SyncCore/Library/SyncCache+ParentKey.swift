import SyncDecoding

extension SyncCache {
    /// For a webhook with a `parent_key` (``SyncEndpoint/Webhook/parentKey``): a reader of the hook's body, fed as it
    /// streams in, which keeps nothing but the value at the path, and the parent row's key it found there, as the
    /// child rows' `_parent` holds it (`42`, `"acme/widgets"`); nil when the body has no number or string there.
    ///
    /// ```swift
    /// guard let reader = SyncCache.parentKeyReader(path: "repository.full_name") else { … }
    /// for try await buffer in body { buffer.withUnsafeReadableBytes(reader.feed) }
    /// let key = reader.key()
    /// ```
    ///
    /// - Returns: nil when `path` is not a JSON path (the configuration's rules refuse it first).
    package static func parentKeyReader(
        path: String
    ) -> (feed: (UnsafeRawBufferPointer) -> Void, key: () -> String?)? {
        guard let path = try? JSONPath(parsing: path) else { return nil }
        let box = CaptureBox(EnvelopeCapture(paths: [path]))
        return (
            feed: { bytes in box.capture.feed(bytes.bindMemory(to: UInt8.self)) },
            key: { box.capture.value(at: path)?.json }
        )
    }

    /// The capture the reader's two closures share.
    private final class CaptureBox {
        var capture: EnvelopeCapture

        init(_ capture: EnvelopeCapture) {
            self.capture = capture
        }
    }
}
