import Foundation

/// A TCP port on 127.0.0.1 that counts who connects: a test that must prove no request is made listens
/// here. The port has five digits, so it can replace another five-digit port in a file without moving bytes.
public final class LoopbackListener: @unchecked Sendable {
    public let port: Int
    private let socketDescriptor: Int32

    public init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        socketDescriptor = descriptor
        guard descriptor >= 0 else { throw ToolFailure(tool: "socket", output: String(cString: strerror(errno))) }
        var chosen = 0
        for candidate in 40_000..<60_000 where chosen == 0 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(candidate).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound == 0 { chosen = candidate }
        }
        guard chosen != 0, listen(descriptor, 16) == 0 else { throw ToolFailure(tool: "listen", output: "no free port") }
        port = chosen
        _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
    }

    /// Connections made so far (each accepted and closed).
    public func connections() -> Int {
        var count = 0
        while true {
            let client = accept(socketDescriptor, nil, nil)
            guard client >= 0 else { return count }
            close(client)
            count += 1
        }
    }

    deinit {
        close(socketDescriptor)
    }
}
