/// The questions the probe asks a terminal, in order, each answered (or not) by a reply `TerminalReplies` reads.
/// The primary device attributes come last: every terminal answers them, so their reply ends the wait.
public enum TerminalQueries {
    /// `sharedMemoryName`: a POSIX shared-memory object holding one RGB pixel, or nil to skip that question.
    /// `passthrough`: inside tmux with passthrough allowed, the kitty questions are wrapped to reach the terminal
    /// around tmux (tmux answers the others itself).
    public static func bytes(sharedMemoryName: String?, passthrough: Bool) -> [UInt8] {
        var kitty = "\u{1B}_Gi=\(TerminalReplies.directQueryID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
        if let name = sharedMemoryName {
            kitty += "\u{1B}_Gi=\(TerminalReplies.sharedMemoryQueryID),s=1,v=1,a=q,t=s,f=24;\(base64(Array(name.utf8)))\u{1B}\\"
        }
        if passthrough {
            kitty = "\u{1B}Ptmux;" + kitty.replacingEscapes() + "\u{1B}\\"
        }
        let rest = "\u{1B}[16t" + "\u{1B}[14t" + "\u{1B}[?1016$p" + "\u{1B}[>0q" + "\u{1B}[c"
        return Array((kitty + rest).utf8)
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for position in 0..<4 {
                out.append(position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 63] : "=")
            }
            index += 3
        }
        return out
    }
}

private extension String {
    /// tmux passes a wrapped sequence on with each ESC in it doubled.
    func replacingEscapes() -> String {
        var out = ""
        for character in self { out += character == "\u{1B}" ? "\u{1B}\u{1B}" : String(character) }
        return out
    }
}
