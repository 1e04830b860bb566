/// The questions the probe asks a terminal, in order, each answered (or not) by a reply `TerminalReplies` reads.
/// The primary device attributes come last: every terminal answers them, so their reply ends the wait.
public enum TerminalQueries {
    /// `sharedMemoryName`: a POSIX shared-memory object holding one RGB pixel, or nil to skip that question.
    /// `passthrough`: inside tmux with passthrough allowed, the kitty questions, XTVERSION and DA1 are wrapped to reach
    /// the terminal around tmux (tmux answers the others itself); two DA1 answers then end the wait.
    public static func bytes(sharedMemoryName: String?, passthrough: Bool) -> [UInt8] {
        var kitty = "\u{1B}_Gi=\(TerminalReplies.directQueryID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
        if let name = sharedMemoryName {
            kitty += "\u{1B}_Gi=\(TerminalReplies.sharedMemoryQueryID),s=1,v=1,a=q,t=s,f=24;\(Base64.encode(Array(name.utf8)))\u{1B}\\"
        }
        if passthrough {
            // The terminal around tmux also names itself and answers DA1 last, so its late answers are waited for
            // (and never left to be read as keys).
            kitty = TmuxPassthrough.wrap(kitty + "\u{1B}[>0q" + "\u{1B}[c")
        }
        // XTSMGRAPHICS: the largest sixel image the terminal shows (xterm shows nothing of a larger one).
        let rest = "\u{1B}[16t" + "\u{1B}[14t" + "\u{1B}[?1016$p" + "\u{1B}[?2;4S" + "\u{1B}[>0q" + "\u{1B}[c"
        return Array((kitty + rest).utf8)
    }
}
