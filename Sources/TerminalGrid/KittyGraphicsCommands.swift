/// The escapes of kitty's graphics protocol the editor sends: `ESC _ G keys ; payload ESC \`.
/// Responses are asked for only where the editor acts on them (`q=1`: errors only, so an evicted image can be
/// sent again); everything else is quiet (`q=2`).
public enum KittyGraphicsCommands {
    /// Under the text and under every cell with a background colour of its own: panels and overlays drawn over the
    /// page area hide the page, as they do in symbols.
    public static let pageZ = -1_073_741_826
    public static let markupZ = -1_073_741_825
    /// kitty's limit on a chunk of base64 payload.
    public static let chunkSize = 4096

    public enum Transfer: Sendable {
        /// The pixels in the escape, zlib-compressed (`o=z`).
        case direct(compressed: [UInt8])
        /// The name of a POSIX shared-memory object holding the pixels; the terminal removes it once read.
        case sharedMemory(name: String)
    }

    /// Sends an image without showing it. `format` 24 is RGB, 32 RGBA (not premultiplied).
    public static func transmit(image id: Int, format: Int, width: Int, height: Int, transfer: Transfer) -> String {
        command(keys: "a=t,q=2,i=\(id),f=\(format),s=\(width),v=\(height)", transfer: transfer)
    }

    /// Sends an image and places it at the cursor at once: `a=T`.
    public static func transmitAndPlace(image id: Int, placement: Int, format: Int, width: Int, height: Int,
                                        transfer: Transfer, z: Int) -> String {
        command(keys: "a=T,q=2,i=\(id),p=\(placement),f=\(format),s=\(width),v=\(height),z=\(z),C=1", transfer: transfer)
    }

    /// A command carrying pixels: the shared-memory object's name, or the compressed pixels in chunks.
    private static func command(keys: String, transfer: Transfer) -> String {
        switch transfer {
        case .sharedMemory(let name):
            return "\u{1B}_G\(keys),t=s;\(Base64.encode(Array(name.utf8)))\u{1B}\\"
        case .direct(let compressed):
            return chunked(keys: keys + ",t=d,o=z", payload: Base64.encode(compressed))
        }
    }

    /// A part of an image in a pixel rectangle, shown at natural size at the cursor, `offset` pixels into the cell.
    /// Placing an image's placement again moves it: no pixels are sent.
    public static func place(image id: Int, placement: Int, source: (x: Int, y: Int, width: Int, height: Int),
                             offset: (x: Int, y: Int) = (0, 0), z: Int) -> String {
        var keys = "a=p,q=1,i=\(id),p=\(placement),x=\(source.x),y=\(source.y),w=\(source.width),h=\(source.height),z=\(z),C=1"
        if offset.x > 0 { keys += ",X=\(offset.x)" }
        if offset.y > 0 { keys += ",Y=\(offset.y)" }
        return "\u{1B}_G\(keys)\u{1B}\\"
    }

    /// Removes an image's placements, and with `freeing` its pixels too.
    public static func delete(image id: Int, freeing: Bool) -> String {
        "\u{1B}_Ga=d,q=2,d=\(freeing ? "I" : "i"),i=\(id)\u{1B}\\"
    }

    /// A virtual placement for Unicode placeholders: the image shows wherever its placeholder cells are.
    public static func transmitVirtual(image id: Int, columns: Int, rows: Int, width: Int, height: Int,
                                       compressed: [UInt8], format: Int) -> String {
        chunked(keys: "a=T,q=2,U=1,i=\(id),f=\(format),s=\(width),v=\(height),c=\(columns),r=\(rows),t=d,o=z",
                payload: Base64.encode(compressed))
    }

    /// A payload longer than a chunk goes in pieces: the first carries the keys, each but the last says `m=1`.
    static func chunked(keys: String, payload: String) -> String {
        let bytes = Array(payload.utf8)
        guard bytes.count > chunkSize else { return "\u{1B}_G\(keys);\(payload)\u{1B}\\" }
        var out = ""
        out.reserveCapacity(bytes.count + bytes.count / chunkSize * 16 + keys.count)
        var start = 0
        while start < bytes.count {
            let end = min(start + chunkSize, bytes.count)
            let more = end < bytes.count ? 1 : 0
            let head = start == 0 ? "\(keys),m=\(more)" : "q=2,m=\(more)"
            out += "\u{1B}_G\(head);" + String(decoding: bytes[start..<end], as: UTF8.self) + "\u{1B}\\"
            start = end
        }
        return out
    }
}

/// tmux hands a sequence to the terminal around it only wrapped, each ESC inside doubled, and only with
/// `allow-passthrough` on.
public enum TmuxPassthrough {
    public static func wrap(_ sequence: String) -> String {
        var out = "\u{1B}Ptmux;"
        out.reserveCapacity(sequence.utf8.count + 16)
        for scalar in sequence.unicodeScalars {
            if scalar == "\u{1B}" { out.unicodeScalars.append(scalar) }
            out.unicodeScalars.append(scalar)
        }
        return out + "\u{1B}\\"
    }
}

/// Standard base64 (RFC 4648), which kitty's payloads and iTerm2's files are written in.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let value = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            out.append(alphabet[value >> 18 & 63]); out.append(alphabet[value >> 12 & 63])
            out.append(alphabet[value >> 6 & 63]); out.append(alphabet[value & 63])
            index += 3
        }
        let left = bytes.count - index
        if left > 0 {
            let value = Int(bytes[index]) << 16 | (left > 1 ? Int(bytes[index + 1]) << 8 : 0)
            out.append(alphabet[value >> 18 & 63]); out.append(alphabet[value >> 12 & 63])
            out.append(left > 1 ? alphabet[value >> 6 & 63] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }
}
