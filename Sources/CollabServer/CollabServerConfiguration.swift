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
    /// How often the log is trimmed to `keptEvents`: it holds at most this many more between trims (a sixteenth
    /// of what it keeps, at most 1,024, so that a small retention is honoured and a large one costs one trim in 1,024).
    var pruneEvery: Int { max(1, min(1024, keptEvents / 16)) }
    public var largestPDF = 512 << 20
    /// Shared PDFs a user may be sending at once; another upload is answered 503 with Retry-After.
    public var uploadsPerUser = 2
    /// An HTTP request (an upload) whose body stops coming for this long is ended.
    public var idleRequest: Duration = .seconds(30)
    /// Violations (errors a client causes) a connection may make before it is closed.
    public var strikes = 3
    /// How often a connection's access is checked again when nothing happens in its document.
    public var accessCheck: Duration = .seconds(5)
    /// WebSocket pings; a peer that answers none within the period is closed.
    public var heartbeat: Duration = .seconds(20)
    /// How long a call to the database may take before it is given up on: a change is answered `unavailable` (the
    /// client resends it, and an operation id is applied once), a read ends its connection the same way.
    public var transactionDeadline: Duration = .seconds(15)
    /// On SIGTERM, how long connections have to close after being told: a client that stopped reading (a laptop
    /// asleep, a frozen process) would otherwise keep the server from ending, its socket full and every write to it
    /// waiting. Past it the connections left are cut.
    public var shutdownGrace: Duration = .seconds(10)

    public init() {}
}
