/// How a server runs and what it bounds. The defaults are what `redline serve` uses; docs/collaboration-protocol.md
/// lists them.
public struct CollabServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8790
    /// Every user may read and write every document, without grants: a trusted local team.
    public var open = false
    /// PEM files of the certificate chain and the private key: with them the server speaks TLS (wss://, https://).
    public var tls: (certificate: String, key: String)?
    /// The largest frame a client may send.
    public var largestFrame = 1 << 20
    /// Changes a connection may send each second, and in one burst.
    public var changesPerSecond = 100.0
    public var changeBurst = 200.0
    public var connectionsPerUser = 32
    /// Live annotations a document may hold.
    public var mostAnnotations = 100_000
    /// Events the log keeps per document; a client further behind gets the whole set instead.
    public var keptEvents = 100_000
    public var largestPDF = 512 << 20
    /// Violations (errors a client causes) a connection may make before it is closed.
    public var strikes = 3
    /// How often a connection's access is checked again when nothing happens in its document.
    public var accessCheck: Duration = .seconds(5)
    /// WebSocket pings; a peer that answers none within the period is closed.
    public var heartbeat: Duration = .seconds(20)

    public init() {}
}
