import Foundation

/// Writing all of a buffer to a descriptor: `write` may take part of it, or be interrupted by a signal.
public enum DescriptorWriter {
    /// Throws the system's reason (`No space left on device (while writing)`) when a write fails.
    public static func writeAll(_ data: Data, to descriptor: Int32) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw SystemError.last("while writing")
                }
                guard written > 0 else { throw SystemError(reason: "nothing could be written") }
                offset += written
            }
        }
    }
}
