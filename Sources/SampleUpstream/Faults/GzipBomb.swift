/// A small gzip body (RFC 1952) that expands to `prefix`, `count` copies of one byte, then `suffix`: for clients
/// that must bound what they decompress.
///
/// The deflate stream (RFC 1951) is one block with the fixed Huffman codes: the run is a literal, then back
/// references of 258 bytes at distance 1, 13 bits each, so 4 MiB of run take about 26 KiB.
///
/// ```swift
/// let body = GzipBomb.make(prefix: Array("[".utf8), run: 0x20, count: 4 << 20, suffix: Array("]".utf8))
/// ```
package enum GzipBomb {
    /// - Returns: A complete gzip member with its CRC-32 and size, which a correct inflater accepts.
    package static func make(prefix: [UInt8], run: UInt8, count: Int, suffix: [UInt8]) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        var crc = CRC32()
        for byte in prefix {
            bits.literal(byte)
            crc.update(byte)
        }
        var remaining = max(0, count)
        if remaining > 0 {
            bits.literal(run)
            remaining -= 1
        }
        while remaining >= 258 {
            bits.code(0b1100_0101, length: 8)  // length symbol 285: 258 bytes, no extra bits
            bits.code(0, length: 5)  // distance code 0: distance 1, no extra bits
            remaining -= 258
        }
        for _ in 0..<remaining {
            bits.literal(run)
        }
        crc.update(repeating: run, count: max(0, count))
        for byte in suffix {
            bits.literal(byte)
            crc.update(byte)
        }
        bits.code(0, length: 7)  // end of block, symbol 256
        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        let size = UInt32(truncatingIfNeeded: prefix.count &+ max(0, count) &+ suffix.count)
        return header + bits.flushed + littleEndian(crc.value) + littleEndian(size)
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> $0) }
    }
}

/// Packs deflate's bit fields: values least significant bit first, Huffman codes most significant bit first.
private struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var pending: UInt32 = 0
    private var pendingCount = 0

    var flushed: [UInt8] {
        pendingCount > 0 ? bytes + [UInt8(truncatingIfNeeded: pending)] : bytes
    }

    mutating func write(_ value: UInt32, count: Int) {
        pending |= value << UInt32(pendingCount)
        pendingCount += count
        while pendingCount >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: pending))
            pending >>= 8
            pendingCount -= 8
        }
    }

    mutating func code(_ code: UInt32, length: Int) {
        var reversed: UInt32 = 0
        for bit in 0..<length {
            reversed |= ((code >> UInt32(bit)) & 1) << UInt32(length - 1 - bit)
        }
        write(reversed, count: length)
    }

    /// A literal byte in the fixed code: 0–143 in 8 bits from 0x30, 144–255 in 9 bits from 0x190.
    mutating func literal(_ byte: UInt8) {
        if byte < 144 {
            code(0x30 + UInt32(byte), length: 8)
        } else {
            code(0x190 + UInt32(byte) - 144, length: 9)
        }
    }
}

/// CRC-32 as gzip uses it (the reflected polynomial 0xEDB88320).
private struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
        }
        return value
    }

    private var state: UInt32 = 0xFFFF_FFFF

    var value: UInt32 {
        state ^ 0xFFFF_FFFF
    }

    mutating func update(_ byte: UInt8) {
        state = Self.table[Int((state ^ UInt32(byte)) & 0xFF)] ^ (state >> 8)
    }

    mutating func update(repeating byte: UInt8, count: Int) {
        for _ in 0..<count {
            update(byte)
        }
    }
}
