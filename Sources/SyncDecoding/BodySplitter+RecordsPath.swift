extension BodySplitter {
    /// What a value is to the reader.
    enum ValueRole {
        /// Checked and skipped.
        case skipped
        /// On the records path, where its first `level` components led; at the path's end, the records array.
        case onPath(level: Int)
        /// An element of the records array.
        case record
    }

    /// What the value starting with `byte` is, counting it among its array's elements when that array is on the
    /// records path.
    ///
    /// - Throws: ``BodyDecodingError`` when the value is on the path but not the array or object the path needs,
    ///   as ``JSONBodyReader`` does.
    mutating func role(ofValueStartingWith byte: UInt8) throws -> ValueRole {
        guard let level = containers.indices.last else { return try onPath(level: 0, startingWith: byte) }
        guard level < pathContainers else { return .skipped }
        if level == pathKeys.count { return .record }
        if containers[level] { return valueIsOnPath ? try onPath(level: level + 1, startingWith: byte) : .skipped }
        let element = pathElements[level]
        pathElements[level] += 1
        return element == pathIndices[level] ? try onPath(level: level + 1, startingWith: byte) : .skipped
    }

    private func onPath(level: Int, startingWith byte: UInt8) throws -> ValueRole {
        let kind = JSONBodyReader.kind(of: byte) ?? ""
        if level == pathKeys.count {
            guard byte == JSONByte.openBracket else {
                throw BodyDecodingError.recordsNotArray(recordsPath, found: kind)
            }
        } else if pathIndices[level] < 0 {
            guard byte == JSONByte.openBrace else {
                throw BodyDecodingError.recordsPathMissing(recordsPath, level: level, kind: kind, needsObject: true)
            }
        } else {
            guard byte == JSONByte.openBracket else {
                throw BodyDecodingError.recordsPathMissing(recordsPath, level: level, kind: kind, needsObject: false)
            }
        }
        return .onPath(level: level)
    }

    /// Checks, as the container on the records path at `level` closes, that the path went on inside it.
    func checkPathContainerEnd(level: Int) throws {
        guard level < pathKeys.count else { return }  // the records array
        if pathIndices[level] < 0 {
            guard pathFound[level] else {
                throw BodyDecodingError.recordsPathMissing(recordsPath, level: level, key: keyText(level))
            }
        } else {
            guard pathElements[level] > pathIndices[level] else {
                throw BodyDecodingError.recordsPathMissing(recordsPath, level: level, elementCount: pathElements[level])
            }
        }
    }

    /// A key's opening quote was read; its content is kept when its object is on the records path.
    mutating func beginKey() {
        isKey = true
        phase = .string
        isCollectingKey = containers.count <= pathContainers
        guard isCollectingKey else { return }
        keyBytes.removeAll(keepingCapacity: true)
        keyHasEscapes = false
        keyIsTooLong = false
    }

    /// Keeps part of a key's content, unless it is already too long to be the path's key: unescaping never makes
    /// content shorter than a sixth (`\u0041` is 6 bytes for one).
    mutating func collectKey(_ content: UnsafeBufferPointer<UInt8>) {
        guard isCollectingKey, !keyIsTooLong else { return }
        guard keyBytes.count + content.count <= 6 * pathKeys[containers.count - 1].count else {
            keyIsTooLong = true
            return
        }
        keyBytes.append(contentsOf: content)
    }

    /// A key's closing quote was read: compares it with the records path.
    mutating func keyEnded() {
        phase = .colon
        guard isCollectingKey else { return }
        isCollectingKey = false
        let wanted = pathKeys[containers.count - 1]
        if keyIsTooLong {
            keyMatches = false
        } else if keyHasEscapes {
            keyBytes.withUnsafeBufferPointer { _ = JSONStringContent.unescape($0, into: &keyScratch) }
            keyMatches = keyScratch == wanted
        } else {
            keyMatches = keyBytes == wanted
        }
    }

    /// The colon after a key was read: decides whether the value is on the records path.
    ///
    /// - Throws: ``BodyDecodingError/recordsPathRepeated`` for the path's key a second time in one object.
    mutating func endKey() throws {
        let level = containers.count - 1
        guard level < pathContainers else { return }
        valueIsOnPath = keyMatches
        guard keyMatches else { return }
        guard !pathFound[level] else { throw BodyDecodingError.recordsPathRepeated(recordsPath.prefix(level + 1)) }
        pathFound[level] = true
    }

    private func keyText(_ level: Int) -> String {
        String(decoding: pathKeys[level], as: UTF8.self)
    }
}
