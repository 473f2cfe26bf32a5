package import SyncDecoding
import SyncSupport

extension ParentTemplate {
    /// The text with each placeholder replaced by the parent row's value, encoded for its place (see
    /// ``ParentTemplate``).
    ///
    /// - Parameter values: The parent row's value of a column, by name; nil for a column it does not have.
    /// - Throws: ``ParentTemplate/Problem`` when a value is null or missing, cannot stand where it is (a control
    ///   character in a header, an empty, `.` or `..` path segment), or the text comes out too long: that parent is not
    ///   walked.
    /// - Returns: The text to send.
    package func render(_ values: (String) -> ColumnValue?) throws(Problem) -> String {
        var rendered = ""
        // Where each value in the URL's path went, by UTF-8 offset, to find a segment it left empty, `.` or `..`.
        var pathValues: [(column: String, range: Range<Int>)] = []
        for part in parts {
            switch part {
            case .literal(let text):
                rendered += text
            case .value(let column, let slot):
                let encoded = try Self.encode(
                    try Self.text(of: values(column), column: column), column: column, slot: slot)
                let start = rendered.utf8.count
                rendered += encoded
                if case .path = slot { pathValues.append((column, start..<rendered.utf8.count)) }
            }
        }
        if let column = Self.columnLeavingBadSegment(Array(rendered.utf8), pathValues) {
            throw Problem(
                "{parent.\(column)} leaves an empty, \".\" or \"..\" segment in the URL's path, which would step out of "
                    + "the path the url names; this parent is not walked")
        }
        let limit =
            switch use {
            case .url: ConfigurationBounds.renderedURLBytes
            case .header: ConfigurationBounds.renderedHeaderBytes
            case .body: RequestBody.maxBytes
            }
        guard rendered.utf8.count <= limit else {
            throw Problem(
                "the \(use.name) made from this parent's row is longer than \(ByteCount.format(limit)); this parent is "
                    + "not walked")
        }
        return rendered
    }

    /// The column whose value made a segment of the URL's path empty, `.` or `..`; nil when none did. The path runs
    /// from the first `/` after `://` to the first `?` or `#`: the scheme and host hold no value, and an encoded value
    /// holds no `?` or `#`.
    private static func columnLeavingBadSegment(_ url: [UInt8], _ values: [(column: String, range: Range<Int>)])
        -> String?
    {
        guard !values.isEmpty, let scheme = url.firstRange(of: Array("://".utf8)),
            let pathStart = url[scheme.upperBound...].firstIndex(of: UInt8(ascii: "/"))
        else { return nil }
        let pathEnd = url[pathStart...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? url.count
        var segmentStart = pathStart + 1
        for index in segmentStart...pathEnd where index == pathEnd || url[index] == UInt8(ascii: "/") {
            let segment = url[segmentStart..<index]
            defer { segmentStart = index + 1 }
            guard segment.isEmpty || segment.elementsEqual(".".utf8) || segment.elementsEqual("..".utf8) else {
                continue
            }
            // The value's when they touch: a value's first or last byte may be the `/` around the segment.
            let owner = values.first { $0.range.lowerBound <= index && segmentStart <= $0.range.upperBound }
            if let owner { return owner.column }
        }
        return nil
    }

    /// ``render(_:)`` from a row given as a dictionary.
    package func render(_ values: [String: ColumnValue]) throws(Problem) -> String {
        try render { values[$0] }
    }

    /// A value as text: integers in decimal, whole reals as integers, other reals in their shortest form.
    package static func text(of value: ColumnValue?, column: String) throws(Problem) -> String {
        switch value {
        case nil:
            throw Problem("this parent's row has no column \"\(column)\" for {parent.\(column)}; it is not walked")
        case .null?:
            throw Problem("{parent.\(column)} is null in this parent's row; it is not walked")
        case .integer(let integer)?:
            return String(integer)
        case .real(let real)?:
            guard real.isFinite else {
                throw Problem("{parent.\(column)} is not a finite number in this parent's row; it is not walked")
            }
            // Within ±2^53 a whole real is exactly an integer: 1e10 is sent as 10000000000, not 1e+10.
            if real == real.rounded(), abs(real) < 9_007_199_254_740_992 { return String(Int64(real)) }
            return "\(real)"
        case .text(let text)?:
            return text
        }
    }

    /// `text` encoded for `slot`.
    package static func encode(_ text: String, column: String, slot: Slot) throws(Problem) -> String {
        switch slot {
        case .path(segments: false):
            return PercentEncoding.encode(text, keeping: PercentEncoding.isSegmentCharacter)
        case .path(segments: true):
            return text.split(separator: "/", omittingEmptySubsequences: false)
                .map { PercentEncoding.encode($0, keeping: PercentEncoding.isSegmentCharacter) }
                .joined(separator: "/")
        case .query:
            return PercentEncoding.encode(text, keeping: PercentEncoding.isUnreserved)
        case .header:
            guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw Problem(
                    "{parent.\(column)} holds a control character (a line break, a NUL, a tab…), which a header value "
                        + "cannot carry; this parent is not walked")
            }
            return text
        case .jsonString:
            return String(ColumnValue.jsonString(text).dropFirst().dropLast())
        }
    }
}

extension ParentTemplate.Use {
    /// The use in a sentence: `URL`, `header value`, `body`.
    var name: String {
        switch self {
        case .url: "URL"
        case .header: "header value"
        case .body: "body"
        }
    }
}
