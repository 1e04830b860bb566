/// FNV-1a, 64 bits: a short name for some text that is the same on every run and every machine
/// (Swift's own `Hasher` is seeded per process).
public enum StableHash {
    public static func fnv1a64(_ text: String) -> UInt64 {
        fnv1a64(text.utf8)
    }

    public static func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        return hash
    }

    public static func hex(_ text: String) -> String {
        let digits = String(fnv1a64(text), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
