extension ChunkedRecordDecoder {
    /// A syntax error with what its message needs, which the chunk that revealed it may not hold in full: the
    /// body's bytes from its offset on, up to one character's worth.
    struct PendingSyntaxError {
        var error: JSONSyntaxError
        var position: JSONTextPosition
        /// Up to 4 bytes from the error's offset on.
        var found: [UInt8]

        init(_ error: JSONSyntaxError, tracker: BodyPositionTracker, chunk: UnsafeBufferPointer<UInt8>) {
            self.error = error
            self.position = tracker.position(at: error.offset, in: chunk)
            self.found = tracker.bytes(from: error.offset, in: chunk)
        }

        /// Whether more bytes could change the message: only for an unexpected byte that may start a character
        /// of several bytes (other errors name a byte that is ASCII or not UTF-8).
        var isComplete: Bool {
            guard case .unexpectedByte = error.problem, let first = found.first else { return true }
            return first < 0x80 || found.count >= 4
        }

        var bodyError: BodyDecodingError {
            found.withUnsafeBufferPointer { BodyDecodingError(error, at: position, found: $0) }
        }
    }

    /// Throws the ``BodyDecodingError`` for a syntax error in `chunk`, or keeps it until the character at its
    /// offset has arrived.
    mutating func report(_ error: JSONSyntaxError, in chunk: UnsafeBufferPointer<UInt8>) throws {
        let pending = PendingSyntaxError(error, tracker: tracker, chunk: chunk)
        guard pending.isComplete else {
            pendingError = pending
            return
        }
        throw fail(pending.bodyError)
    }

    /// Remembers `error` as the decoder's end, thrown again by every later call.
    mutating func fail(_ error: any Error) -> any Error {
        failure = error
        return error
    }
}
