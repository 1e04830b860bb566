import Testing
import TerminalGrid
import TestSupport

/// The probe's reading of what terminals answer, on the answers real terminals give.
@Suite struct TerminalRepliesTests {
    static let esc = "\u{1B}"
    static let answers = ScriptedTerminalAnswers.answers

    static func read(_ terminal: String, chunk: Int = .max) -> TerminalReplies {
        var replies = TerminalReplies()
        let bytes = Array(answers[terminal]!.utf8)
        var index = 0
        while index < bytes.count {
            replies.absorb(bytes[index..<min(bytes.count, index + chunk)])
            index += chunk
        }
        return replies
    }

    @Test func kittyAnswersEverything() {
        let kitty = Self.read("kitty")
        #expect(kitty.kittyGraphics == true && kitty.kittySharedMemory == true && kitty.kittyErrors.isEmpty)
        #expect(kitty.cellPixels == .init(width: 10, height: 21) && kitty.textAreaPixels == .init(width: 1200, height: 840))
        #expect(kitty.sgrPixelMouse == true && kitty.version == "kitty(0.26.5)" && !kitty.sixel && kitty.isComplete)
        #expect(kitty.strayBytes == 0)
    }

    /// xterm's answer to XTSMGRAPHICS (its default maxGraphicSize): the largest sixel image, which the editor's
    /// images stay within; without an answer, xterm's default is assumed.
    @Test func theLargestSixelImageIsReadAndKeptInTheChoice() {
        var replies = TerminalReplies()
        replies.absorb(Array("\(Self.esc)[?2;0;1000;1000S\(Self.esc)[?1;2;4c".utf8))
        #expect(replies.largestSixel == .init(width: 1000, height: 1000) && replies.sixel && replies.strayBytes == 0)
        var failed = TerminalReplies()
        failed.absorb(Array("\(Self.esc)[?2;3;0S\(Self.esc)[?1;2;4c".utf8))
        #expect(failed.largestSixel == nil, "status 3: the terminal could not say")
        replies.absorb(Array("\(Self.esc)[6;20;10t".utf8))
        let choice = GraphicsChoice.choose(.sixel, replies: replies, environment: TerminalEnvironment([:]), columns: 200, rows: 50,
                                           windowPixels: nil, tmuxPassthrough: nil)
        #expect(choice.mode == .sixel && choice.largestImage == .init(width: 1000, height: 1000))
    }

    @Test func ghosttyRefusesSharedMemoryAndSaysWhy() {
        let ghostty = Self.read("ghostty")
        #expect(ghostty.kittyGraphics == true && ghostty.kittySharedMemory == false)
        #expect(ghostty.kittyErrors == ["ENOENT:No such file or directory"])
        #expect(ghostty.cellPixels == .init(width: 16, height: 34) && ghostty.textAreaPixels == nil)
    }

    @Test func weztermHasSixelAndKittyWithoutSharedMemory() {
        let wezterm = Self.read("wezterm")
        #expect(wezterm.sixel && wezterm.kittyGraphics == true && wezterm.kittySharedMemory == false)
        #expect(wezterm.version == "WezTerm 20240203")
    }

    @Test func footAndXtermHaveSixelAndNoKittyGraphics() {
        for terminal in ["foot", "xterm"] {
            let replies = Self.read(terminal)
            #expect(replies.sixel && replies.kittyGraphics == nil && replies.sgrPixelMouse == true && replies.isComplete, "\(terminal)")
        }
        #expect(Self.read("xterm").cellPixels == .init(width: 6, height: 13))
    }

    @Test func tmuxAnswersForItselfOnly() {
        let tmux = Self.read("tmux")
        #expect(tmux.isComplete && !tmux.sixel && tmux.kittyGraphics == nil && tmux.cellPixels == nil && tmux.sgrPixelMouse == nil)
        #expect(tmux.version == "tmux 3.3a")
    }

    @Test func answersSplitAcrossReadsAreReadWhole() {
        for terminal in Self.answers.keys {
            for chunk in [1, 2, 3, 7] {
                #expect(Self.read(terminal, chunk: chunk) == Self.read(terminal), "\(terminal) read \(chunk) bytes at a time")
            }
        }
    }

    @Test func keysTypedMeanwhileAreDroppedNotTakenForAnswers() {
        var replies = TerminalReplies()
        replies.absorb(Array("jj\(Self.esc)[A\(Self.esc)x\(Self.esc)[?62;4c".utf8))
        #expect(replies.isComplete && replies.sixel)
        #expect(replies.strayBytes == 4, "j, j, and the ESC x that is no reply; an arrow's CSI A is read and ignored")
    }

    @Test func anEndlessStringIsGivenUpOn() {
        var replies = TerminalReplies()
        replies.absorb(Array(("\(Self.esc)_G" + String(repeating: "A", count: 10_000)).utf8))
        replies.absorb(Array("\(Self.esc)[?62c".utf8))
        #expect(replies.isComplete)
    }

    @Test func theQuestionsEndWithDA1AndAreWrappedForTmux() {
        let plain = String(decoding: TerminalQueries.bytes(sharedMemoryName: "/redline-probe-1", passthrough: false), as: UTF8.self)
        #expect(plain.hasPrefix("\(Self.esc)_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\(Self.esc)\\"))
        #expect(plain.contains("t=s,f=24;L3JlZGxpbmUtcHJvYmUtMQ==\(Self.esc)\\"), "the object's name, base64")
        #expect(plain.hasSuffix("\(Self.esc)[16t\(Self.esc)[14t\(Self.esc)[?1016$p\(Self.esc)[?2;4S\(Self.esc)[>0q\(Self.esc)[c"))
        let wrapped = String(decoding: TerminalQueries.bytes(sharedMemoryName: nil, passthrough: true), as: UTF8.self)
        // Inside the wrapper the kitty question, then XTVERSION and DA1 for the terminal around tmux; then tmux's own.
        #expect(wrapped.hasPrefix("\(Self.esc)Ptmux;\(Self.esc)\(Self.esc)_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\(Self.esc)\(Self.esc)\\"
            + "\(Self.esc)\(Self.esc)[>0q\(Self.esc)\(Self.esc)[c\(Self.esc)\\"))
        #expect(!wrapped.contains("i=32"))
    }

    @Test func insideTmuxTheOuterTerminalsLateAnswersAreWaitedFor() {
        // tmux answers its own questions at once; kitty's, through the passthrough, come after tmux's DA1.
        var replies = TerminalReplies()
        replies.awaitedAttributes = 2
        replies.absorb(Array(Self.answers["tmux"]!.utf8))
        #expect(!replies.isComplete, "tmux's DA1 alone does not end the wait")
        replies.absorb(Array("\(Self.esc)_Gi=31;OK\(Self.esc)\\\(Self.esc)P>|kitty(0.26.5)\(Self.esc)\\\(Self.esc)[?62;c".utf8))
        #expect(replies.isComplete && replies.kittyGraphics == true && replies.strayBytes == 0)
        #expect(replies.versions == ["tmux 3.3a", "kitty(0.26.5)"])
    }
}

@Suite struct KittyGraphicsReplyTests {
    @Test func aMissingImageIsReadWithItsID() {
        let reply = KittyGraphicsReply(body: "Gi=7,p=1;ENOENT:Put command refers to non-existent image with id: 7 and number: 0")
        #expect(reply?.imageID == 7)
        #expect(reply?.imageIsMissing == true && reply?.isOK == false)
    }

    @Test func okAndOtherErrorsAreNotMissingImages() {
        #expect(KittyGraphicsReply(body: "Gi=31;OK")?.imageIsMissing == false)
        #expect(KittyGraphicsReply(body: "Gi=31;OK")?.isOK == true)
        #expect(KittyGraphicsReply(body: "Gi=3;EINVAL:bad")?.imageIsMissing == false)
    }

    @Test func repliesWithoutAnIDOrNotGraphicsAreNothing() {
        #expect(KittyGraphicsReply(body: "G;ENOENT:x") == nil)
        #expect(KittyGraphicsReply(body: "Gi=x;ENOENT") == nil)
        #expect(KittyGraphicsReply(body: "i=3;ENOENT") == nil)
        #expect(KittyGraphicsReply(body: "Gi=99999999999999999999999;ENOENT") == nil)
    }
}
