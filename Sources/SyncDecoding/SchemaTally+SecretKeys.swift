extension SchemaTally {
    /// Whether the JSON `value` is an object or an array with a key anywhere inside whose name says it holds a
    /// secret (``isSecret(_:)``): such a value is never kept as an example, whole or cut.
    ///
    /// A key is a string followed by `:`; strings are skipped with their escapes, so that text inside a value is
    /// never read as a key. Only examples are read this way: at most one value per field and per column's type in a
    /// page.
    static func holdsSecretKey(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = value.first, first == JSONByte.openBrace || first == JSONByte.openBracket else {
            return false
        }
        var index = 0
        var name: [UInt8] = []
        while index < value.count {
            guard value[index] == JSONByte.quote else {
                index += 1
                continue
            }
            let start = index + 1
            index = start
            while index < value.count, value[index] != JSONByte.quote {
                index += value[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard index < value.count else { return false }
            let end = index
            index += 1
            var next = index
            while next < value.count, [0x20, 0x09, 0x0A, 0x0D].contains(value[next]) { next += 1 }
            guard next < value.count, value[next] == UInt8(ascii: ":") else { continue }
            _ = JSONStringContent.unescape(UnsafeBufferPointer(rebasing: value[start..<end]), into: &name)
            if isSecret(String(decoding: name, as: UTF8.self)) { return true }
        }
        return false
    }
}
