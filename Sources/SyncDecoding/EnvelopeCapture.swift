/// Keeps the values at a few paths outside the records — a next cursor, a next URL, a has-more flag — while a body
/// streams through ``ChunkedRecordDecoder``, without holding the body.
///
/// It reads only the envelope: the bytes around the records array, with each record replaced by a placeholder
/// (`[0,0,0]`), so its work is bounded by the envelope's size, not the records'. ``BodySplitter`` checks the
/// grammar of those same bytes, so this reader can be lenient: it tracks strings, keys, nesting and element
/// indices, and nothing else. A captured value is kept up to ``maximumValueLength`` bytes; a longer one is
/// dropped and reported by ``overlongPaths``. When a key repeats, the last value wins.
package struct EnvelopeCapture {
    /// The longest value kept: a next URL or cursor is far shorter.
    static let maximumValueLength = 64 << 10

    private struct Frame {
        var isObject: Bool
        /// The paths still matching down to this container.
        var alive: [Int]
        var elementIndex = 0
        var expectingKey: Bool
        var key: [UInt8] = []
    }

    private enum Token {
        case none
        case key
        case string
        case escapeInKey, escapeInString
        case scalar
    }

    let paths: [JSONPath]
    private(set) var values: [CapturedValue?]
    private(set) var overlongPaths: [JSONPath] = []
    private var stack: [Frame] = []
    private var token = Token.none
    /// The path being captured and the depth its value started at.
    private var capturing: (path: Int, depth: Int)?
    /// Whether the captured value is an array or object, whose every byte is kept.
    private var capturingContainer = false
    private var captured: [UInt8] = []
    private var scratch: [UInt8] = []
    /// Whether the top-level value has begun.
    private var hasBegun = false

    package init(paths: [JSONPath]) {
        self.paths = paths
        self.values = Array(repeating: nil, count: paths.count)
    }

    /// The value captured at `path`, or nil when the body had none there.
    package func value(at path: JSONPath) -> CapturedValue? {
        paths.firstIndex(of: path).flatMap { values[$0] }
    }

    /// Reads the next envelope bytes.
    package mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes { step(byte) }
    }

    /// Stands for one record of the records array.
    mutating func feedRecordPlaceholder() {
        step(JSONByte.zero)
    }

    /// The body ended: a number at the top level ends with it.
    package mutating func finish() {
        if token == .scalar { endScalar() }
    }

    private mutating func step(_ byte: UInt8) {
        if capturingContainer { append(byte) }
        switch token {
        case .key, .escapeInKey:
            if token == .escapeInKey {
                token = .key
            } else if byte == JSONByte.backslash {
                token = .escapeInKey
            } else if byte == JSONByte.quote {
                token = .none
                return
            }
            stack[stack.count - 1].key.append(byte)
            return
        case .string, .escapeInString:
            keep(byte)
            if token == .escapeInString {
                token = .string
            } else if byte == JSONByte.backslash {
                token = .escapeInString
            } else if byte == JSONByte.quote {
                token = .none
                endValue(depth: stack.count)
            }
            return
        case .scalar:
            guard isDelimiter(byte) else {
                keep(byte)
                return
            }
            endScalar()
        case .none:
            break
        }
        structural(byte)
    }

    private mutating func structural(_ byte: UInt8) {
        switch byte {
        case JSONByte.space, JSONByte.newline, JSONByte.carriageReturn, JSONByte.tab:
            return
        case JSONByte.quote:
            if let top = stack.last, top.isObject, top.expectingKey {
                stack[stack.count - 1].key.removeAll(keepingCapacity: true)
                token = .key
                return
            }
            beginValue()
            keep(byte)
            token = .string
        case JSONByte.openBrace, JSONByte.openBracket:
            let alive = beginValue()
            if let capturing, capturing.depth == stack.count, !capturingContainer {
                capturingContainer = true
                append(byte)
            }
            stack.append(Frame(isObject: byte == JSONByte.openBrace, alive: alive, expectingKey: true))
        case JSONByte.closeBrace, JSONByte.closeBracket:
            guard !stack.isEmpty else { return }
            stack.removeLast()
            endValue(depth: stack.count)
        case JSONByte.comma:
            guard let top = stack.last else { return }
            if top.isObject {
                stack[stack.count - 1].expectingKey = true
            } else {
                stack[stack.count - 1].elementIndex += 1
            }
        case JSONByte.colon:
            if !stack.isEmpty { stack[stack.count - 1].expectingKey = false }
        default:
            // A byte order mark before the top-level value (the splitter has checked it).
            if byte >= 0x80, stack.isEmpty, !hasBegun { return }
            beginValue()
            keep(byte)
            token = .scalar
        }
    }

    /// A value starts in the innermost container: starts capturing it when a path ends here.
    ///
    /// - Returns: the paths that go on inside it, when it is an array or object.
    @discardableResult
    private mutating func beginValue() -> [Int] {
        hasBegun = true
        guard capturing == nil else { return [] }
        guard let top = stack.last else { return paths.indices.filter { !paths[$0].components.isEmpty } }
        guard !top.alive.isEmpty else { return [] }
        let level = stack.count - 1
        var key: [UInt8] = top.key
        if top.isObject, key.contains(JSONByte.backslash) {
            key.withUnsafeBufferPointer { _ = JSONStringContent.unescape($0, into: &scratch) }
            key = scratch
        }
        var inside: [Int] = []
        for path in top.alive {
            let matches: Bool
            switch paths[path].components[level] {
            case .key(let name): matches = top.isObject && key.elementsEqual(name.utf8)
            case .index(let index): matches = !top.isObject && top.elementIndex == index
            }
            guard matches else { continue }
            if paths[path].components.count == level + 1 {
                capturing = (path, stack.count)
                captured.removeAll(keepingCapacity: true)
            } else {
                inside.append(path)
            }
        }
        return inside
    }

    /// Keeps a byte of a captured string or scalar; a container's bytes are all kept by ``step(_:)``.
    private mutating func keep(_ byte: UInt8) {
        guard capturing != nil, !capturingContainer else { return }
        append(byte)
    }

    /// Keeps a byte of the captured value, and one more than the limit to mark it overlong.
    private mutating func append(_ byte: UInt8) {
        guard captured.count <= Self.maximumValueLength else { return }
        captured.append(byte)
    }

    private mutating func endScalar() {
        token = .none
        endValue(depth: stack.count)
    }

    /// A value ended at `depth`: the captured one, if it started there.
    private mutating func endValue(depth: Int) {
        guard let (path, start) = capturing, start == depth else { return }
        capturing = nil
        capturingContainer = false
        if captured.count > Self.maximumValueLength {
            values[path] = nil
            overlongPaths.append(paths[path])
        } else {
            values[path] = CapturedValue(bytes: captured)
        }
        captured.removeAll(keepingCapacity: captured.count <= Self.maximumValueLength)
    }

    private func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case JSONByte.comma, JSONByte.closeBrace, JSONByte.closeBracket, JSONByte.space, JSONByte.newline,
            JSONByte.carriageReturn, JSONByte.tab:
            true
        default: false
        }
    }
}
