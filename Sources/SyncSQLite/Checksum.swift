/// Checksums for detecting edits, not for security.
enum Checksum {
    /// 64-bit FNV-1a (http://www.isthe.com/chongo/tech/comp/fnv/), as 16 lowercase hex digits.
    static func fnv1a64Hex(_ bytes: some Sequence<UInt8>) -> String {
        let hash = fnv1a64(bytes)
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    static func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
