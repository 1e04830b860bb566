import Foundation

/// A document's identity for keeping things about it outside it (sidecar bookmarks): the first half of
/// its trailer /ID in hex, which copies keep. A document without /ID gets one derived from its path,
/// and Redline writes that into every copy it saves, so the copies keep the identity too.
public enum DocumentIdentity {
    public static func of(permanentID: String?, path absolutePath: String) -> String {
        permanentID ?? derived(fromPath: absolutePath)
    }

    /// 16 bytes, as /ID holds, in hex.
    public static func derived(fromPath absolutePath: String) -> String {
        StableHash.hex(absolutePath) + StableHash.hex("redline-identity:" + absolutePath)
    }

    /// 16 bytes from a file's contents, for sharing a document without /ID: every copy of the same bytes agrees.
    public static func derived(fromBytes bytes: [UInt8]) -> String {
        String(format: "%016llx%016llx", StableHash.fnv1a64(bytes), StableHash.fnv1a64(Array("redline-identity:".utf8) + bytes))
    }
}
