extension RFC3339Timestamp {
    /// A timestamp as a reader writes it in a filter or a key: any RFC 3339 form (any offset, any fraction, a
    /// space for the `T`), a date, or Unix seconds (milliseconds from 10^11 on), as a `timestamp` column stores
    /// it; `nil` for anything else.
    package static func storedForm(ofOperand operand: String) -> String? {
        Array(operand.utf8).withUnsafeBufferPointer { text -> String? in
            guard let first = text.first else { return nil }
            if let timestamp = RFC3339Timestamp(parsing: text, allowsSpace: true) { return timestamp.text }
            guard first == JSONByte.minus || JSONByte.isDigit(first) else { return nil }
            return ColumnConversion.timestamp(fromUnixTime: text)?.text
        }
    }
}
