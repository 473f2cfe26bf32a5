#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A `Double` written with C's `%.<digits>g` (what Foundation's `String(format:)` would call, without linking
/// Foundation's NSString: see ``ThreadCondition``).
package enum DoubleText {
    /// `value` with `digits` significant digits (1 to 17), as `printf("%.*g")` writes it: `0.1`, `1e+20`, `inf`.
    package static func general(_ value: Double, significantDigits digits: Int) -> String {
        let precision = Int32(min(max(digits, 1), 17))
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> String in
            guard let base = buffer.baseAddress else { return "\(value)" }
            let written = withVaList([precision, value]) { vsnprintf(base, buffer.count, "%.*g", $0) }
            guard written > 0, Int(written) < buffer.count else { return "\(value)" }
            return String(decoding: UnsafeRawBufferPointer(start: base, count: Int(written)), as: UTF8.self)
        }
    }
}
