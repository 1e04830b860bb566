/// Where a server started on this machine saves its first user's token, and where `redline collab` looks for it:
/// `$XDG_CONFIG_HOME/redline/collab-token`, by default `~/.config/redline/collab-token`.
public enum CollabTokenFile {
    public static func path(environment: [String: String], home: String) -> String {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (home + "/.config")
        return base + "/redline/collab-token"
    }
}
