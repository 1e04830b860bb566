import CZlib

/// zlib streams, as kitty's graphics protocol reads them (`o=z`). The fastest level: a page goes to the terminal
/// while the reviewer waits, and level 1 already shrinks a page of text about tenfold.
public enum ZlibCompression {
    public static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = bytes.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                compress2(target.baseAddress, &length, source.baseAddress, uLong(source.count), 1)
            }
        }
        // compress2 fails only without memory or with a bound too small, neither of which a bound from
        // compressBound allows; an empty stream would show nothing rather than garbage.
        guard status == Z_OK else { return [] }
        out.removeSubrange(Int(length)...)
        return out
    }
}
