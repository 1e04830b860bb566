import CZlib
import Foundation

/// FlateDecode with a budget: a few hundred bytes can inflate to gigabytes, and qpdf decodes a stream
/// whole. Used for the one stream Redline decodes from untrusted documents, the XMP metadata.
enum BoundedInflate {
    /// The inflated bytes, at most `limit` of them plus one (so an oversized result is recognisable);
    /// nil when the data is not a valid zlib stream.
    static func inflate(_ compressed: [UInt8], limit: Int) -> Data? {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = compressed
        return input.withUnsafeMutableBufferPointer { source -> Data? in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return output.prefix(limit + 1) }
                switch status {
                case Z_STREAM_END: return output
                case Z_OK: if produced == 0 && stream.avail_in == 0 { return output }
                case Z_BUF_ERROR where stream.avail_in == 0: return output
                default: return nil
                }
            }
        }
    }
}
