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
}
