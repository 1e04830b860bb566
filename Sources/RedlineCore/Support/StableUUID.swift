import Foundation

/// UUIDs derived from a seed and a name: the same inputs give the same UUID on every run and machine.
/// Used where an id must be globally unique yet reproducible: items of a file that carry no id, and the ids
/// an editor event mints (replaying the same events must give the same ids).
public enum StableUUID {
    public static func derived(seed: UInt64, item: String) -> UUID {
        let mixed = seed ^ StableHash.fnv1a64(item)
        var high = mixed &* 0x9E37_79B9_7F4A_7C15 ^ StableHash.fnv1a64(item + "/high")
        var low = StableHash.fnv1a64(item + "/low") ^ (mixed >> 7 | mixed << 57)
        // Version 8 (vendor-defined), RFC 9562 variant: a well-formed UUID every reader accepts.
        high = (high & ~0xF000) | 0x8000
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
