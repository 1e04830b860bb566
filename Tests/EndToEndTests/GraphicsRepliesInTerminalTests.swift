import Foundation
import TestSupport
import Testing

/// kitty answers graphics commands on the editor's input (a late answer to the probe, an error about an image):
/// the editor reads them to their end and drops them. Read as keys, `_` would make the text smaller and `G` go to
/// the last page.
@Suite(.serialized) struct GraphicsRepliesInTerminalTests {
    @Test func kittysAnswersAreNeverTakenForKeys() throws {
        let folder = TemporaryFolder()
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' --graphics symbols '\(TestPaths.sample)'",
                                   environment: ["XDG_STATE_HOME": folder.file("state")])
        try tmux.waitFor("page 1/4")
        try tmux.type("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=7,p=1;ENOENT:No such image\u{1B}\\")
        try tmux.type("j")
        try tmux.waitFor("page 2/4")
        let screen = try tmux.screen()
        #expect(screen.contains("text 14pt red"), "the size did not change: \(screen)")
        #expect(!screen.contains("ENOENT") && !screen.contains("Gi="), "nothing of the answers shows")
    }
}
