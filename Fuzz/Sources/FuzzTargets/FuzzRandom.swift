/// Choices derived from the input itself, so that an input always replays the same way.
struct FuzzRandom: RandomNumberGenerator {
    var state: UInt64

    /// Seeded with the FNV-1a hash of the input.
    init(hashing bytes: UnsafeBufferPointer<UInt8>) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        state = hash
    }

    /// SplitMix64.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
