import Foundation
import RedlineCore
import Testing
@testable import Editor

/// Undo in a shared session after the server took the change: the inverse is sent as a new change against the
/// server's version, so everyone sees it undone; a change someone else made since is never overwritten.
@Suite struct SharedUndoTests {
    /// Alice's text from an earlier session of hers, now one of the server's annotations, with Bob watching.
    static func roomWithAlicesServerText(_ words: String) -> SharedRoom {
        var room = SharedRoom()
        room.join("alice")
        room.act("alice") { $0.placeText(words) }
        room.pause("alice")
        room.deliver()
        room.leave("alice")
        room.join("alice")
        room.join("bob")
        room.deliver()
        return room
    }

    static func rect(_ room: SharedRoom, _ user: String, _ words: String) -> Rect? {
        room.editors[user]!.state.annotations.first { $0.contents == words }?.rect
    }

    @Test func undoingAMoveTheServerTookMovesItBackForEveryone() throws {
        var room = Self.roomWithAlicesServerText("Moved twice")
        let before = try #require(Self.rect(room, "alice", "Moved twice"))
        room.act("alice") { $0.press(.tab, .right, .right, .right) }
        room.pause("alice")
        room.deliver()
        #expect(room.server.live.first?.version == 2)
        #expect(Self.rect(room, "bob", "Moved twice")?.minX == before.minX + 3)

        room.act("alice") { $0.press(.escape, .character("u")) }
        room.pause("alice")
        room.deliver()
        #expect(room.editors["alice"]!.state.message?.hasPrefix("Undone") == true, "\(room.editors["alice"]!.state.message ?? "")")
        #expect(room.server.live.first?.version == 3, "the inverse is one more change")
        for user in ["alice", "bob"] {
            let shown = try #require(Self.rect(room, user, "Moved twice"))
            #expect(abs(shown.minX - before.minX) < 0.001 && abs(shown.minY - before.minY) < 0.001, "\(user): \(shown) \(before)")
        }
        #expect(room.editors["alice"]!.state.sharing?.refusals.isEmpty == true)

        room.act("alice") { $0.press(.control("r")) }
        room.pause("alice")
        room.deliver()
        #expect(room.server.live.first?.version == 4)
        #expect(Self.rect(room, "bob", "Moved twice")?.minX == before.minX + 3)
        SharedSessionTests.expectEveryEditorAgrees(room, on: "Moved twice")
    }

    /// An undo is a change the server records now: the annotation's /M is the undo's time, for everyone, not the
    /// time of the change it undid.
    @Test func anUndoneChangeIsModifiedWhenItWasUndone() throws {
        var room = Self.roomWithAlicesServerText("Dated")
        room.act("alice") { $0.press(.tab, .right, .right, .escape) }
        room.pause("alice")
        room.deliver()
        let undoTime = PDFDate(year: 2026, month: 11, day: 22, hour: 11, minute: 45, offsetMinutes: 60)
        room.act("alice") { editor in
            editor.time = undoTime
            editor.press(.character("u"))
        }
        room.pause("alice")
        room.deliver()
        #expect(room.editors["alice"]!.state.message?.hasPrefix("Undone") == true, "\(room.editors["alice"]!.state.message ?? "")")
        for user in ["alice", "bob"] {
            let modified = room.editors[user]!.state.annotations.first { $0.contents == "Dated" }?.modified
            #expect(modified == undoTime, "\(user): \(String(describing: modified))")
        }
    }

    /// A redo is dated when it was made, in the user's own list as on the server and in the other editor, however
    /// long after it the pause comes that sends it (the list once took the time of the send, a second later).
    @Test func aRedoneChangeIsModifiedWhenItWasRedoneEverywhere() throws {
        var room = Self.roomWithAlicesServerText("Dated")
        room.act("alice") { $0.press(.tab, .right, .right, .escape) }
        room.pause("alice")
        room.deliver()
        room.act("alice") { editor in
            editor.time = PDFDate(year: 2026, month: 11, day: 22, hour: 11, minute: 45, offsetMinutes: 60)
            editor.press(.character("u"))
        }
        room.pause("alice")
        room.deliver()
        let redoTime = PDFDate(year: 2026, month: 11, day: 22, hour: 11, minute: 50, second: 59, offsetMinutes: 60)
        var request: SaveRequest?
        room.act("alice") { editor in
            editor.time = redoTime
            editor.press(.control("r"))
            // A copy written a second later, before the pause sends the redo, dates it when it was redone.
            editor.time = PDFDate(year: 2026, month: 11, day: 22, hour: 11, minute: 51, second: 0, offsetMinutes: 60)
            if case .save(let made)? = editor.command("w /tmp/copy.pdf").last { request = made }
        }
        let copy = try #require(request)
        let copied = copy.sharedAnnotations?.first { $0.contents == "Dated" }?.modified
        #expect(copied == redoTime, "alice's copy: \(String(describing: copied))")
        room.pause("alice")
        room.deliver()
        for user in ["alice", "bob"] {
            let modified = room.editors[user]!.state.annotations.first { $0.contents == "Dated" }?.modified
            #expect(modified == redoTime, "\(user): \(String(describing: modified))")
        }
    }

    /// Markup made while offline is dated when it was made, not when it reaches the server.
    @Test func markupMadeOfflineIsDatedWhenItWasMade() throws {
        let made = PDFDate(year: 2026, month: 11, day: 22, hour: 11, minute: 5, offsetMinutes: 60)
        var room = SharedRoom.aliceOffline(placing: "Written offline", at: made)
        room.pause("alice")
        room.act("alice") { $0.time = PDFDate(year: 2026, month: 11, day: 22, hour: 11, minute: 40, offsetMinutes: 60) }
        room.connect("alice")
        room.pause("alice")
        room.deliver()
        let shown = try #require(room.editors["bob"]!.state.annotations.first { $0.contents == "Written offline" })
        #expect(shown.created == made && shown.modified == made, "\(String(describing: shown.created)) \(String(describing: shown.modified))")
    }

    /// Markup made offline and moved before it reached the server is created when it was made and modified when it
    /// was moved (it was created at the move).
    @Test func markupMovedBeforeItIsSentKeepsWhenItWasMade() throws {
        let made = PDFDate(year: 2026, month: 11, day: 22, hour: 11, minute: 5, offsetMinutes: 60)
        let moved = PDFDate(year: 2026, month: 11, day: 22, hour: 11, minute: 6, offsetMinutes: 60)
        var room = SharedRoom.aliceOffline(placing: "Moved offline", at: made)
        room.pause("alice")
        room.act("alice") { editor in
            editor.time = moved
            editor.press(.right, .right)
        }
        room.pause("alice")
        room.act("alice") { $0.time = PDFDate(year: 2026, month: 11, day: 22, hour: 11, minute: 40, offsetMinutes: 60) }
        room.connect("alice")
        room.pause("alice")
        room.deliver()
        for user in ["alice", "bob"] {
            let shown = try #require(room.editors[user]!.state.annotations.first { $0.contents == "Moved offline" }, "\(user)")
            #expect(shown.created == made && shown.modified == moved, "\(user): \(String(describing: shown.created)) \(String(describing: shown.modified))")
        }
    }

    /// Offline, a move undone, or moved back by hand, is no change: the status line counts nothing waiting, quitting
    /// is not held back, and reconnecting sends nothing. A move that stays is still counted and sent.
    @Test func aChangeUndoneOfflineIsNotCountedOrSent() throws {
        var room = SharedRoom()
        room.join("alice")
        room.join("bob")
        room.act("alice") { $0.placeText("Shared first") }
        room.pause("alice")
        room.deliver()
        room.disconnect("alice")
        func status() -> String { room.editors["alice"]!.state.sharing?.statusField ?? "" }
        room.act("alice") { $0.press(.right, .right) }
        room.pause("alice")
        #expect(status().contains("1 waiting"), "\(status())")
        room.act("alice") { $0.press(.escape, .character("u")) }
        room.pause("alice")
        #expect(!status().contains("waiting"), "undone: \(status())")
        room.act("alice") { $0.press(.tab, .right, .left) }
        room.pause("alice")
        #expect(!status().contains("waiting"), "moved back: \(status())")
        var quitting = room.editors["alice"]!
        quitting.press(.escape, .character("q"))
        #expect(quitting.effects.contains(.quit), "nothing holds quitting back: \(quitting.state.message ?? "")")
        let sentBefore = room.sent["alice", default: []].count
        room.connect("alice")
        room.pause("alice")
        room.deliver()
        #expect(room.sent["alice", default: []].count == sentBefore, "nothing is sent on reconnecting")

        room.disconnect("alice")
        room.act("alice") { $0.press(.tab, .down) }
        room.pause("alice")
        #expect(status().contains("1 waiting"), "\(status())")
        room.connect("alice")
        room.pause("alice")
        room.deliver()
        #expect(room.sent["alice", default: []].count == sentBefore + 1, "the move that stays is sent")
    }

    @Test func undoingNewWordsAndANewColourTheServerTookBringsTheOldOnesBack() throws {
        var room = Self.roomWithAlicesServerText("First words")
        let colour = room.editors["bob"]!.state.annotations.first?.drawing.color
        room.act("alice") { editor in
            editor.press(.tab, .enter, .control("u"))
            for character in "Second words" { editor.press(.character(character)) }
            editor.press(.enter, .escape)
        }
        room.pause("alice")
        room.deliver()
        room.act("alice") { $0.press(.tab, .character("c"), .escape) }
        room.pause("alice")
        room.deliver()
        #expect(room.editors["bob"]!.state.annotations.map(\.contents) == ["Second words"])
        #expect(room.editors["bob"]!.state.annotations.first?.drawing.color != colour)

        room.act("alice") { $0.press(.escape, .character("u")) }
        room.pause("alice")
        room.deliver()
        #expect(room.editors["bob"]!.state.annotations.first?.drawing.color == colour, "the colour is undone first")
        #expect(room.editors["alice"]!.state.message == "Undone: the new colour of the text box")
        #expect(room.editors["bob"]!.state.annotations.map(\.contents) == ["Second words"])
        room.act("alice") { $0.press(.character("u")) }
        room.pause("alice")
        room.deliver()
        for user in ["alice", "bob"] {
            #expect(room.editors[user]!.state.annotations.map(\.contents) == ["First words"], "\(user)")
        }
        #expect(room.server.live.first?.version == 5)
        SharedSessionTests.expectEveryEditorAgrees(room, on: "First words")
    }

    /// New words for a text box from the server are sent with the box they take: others see every word.
    @Test func newWordsForATextBoxFromTheServerAreSentWithTheBoxTheyTake() throws {
        var room = Self.roomWithAlicesServerText("Short")
        let before = try #require(Self.rect(room, "bob", "Short"))
        let words = "Several more words than the box first held"
        room.act("alice") { editor in
            editor.press(.tab, .enter, .control("u"))
            for character in words { editor.press(.character(character)) }
            editor.press(.enter, .escape)
        }
        room.pause("alice")
        room.deliver()
        let after = try #require(Self.rect(room, "bob", words))
        #expect(after.width > before.width * 3, "\(before) → \(after)")
        #expect(abs(after.minX - before.minX) < 0.01 && abs(after.minY - before.minY) < 0.01, "it stays where it was")
        #expect(Self.rect(room, "alice", words) == after)
    }

    @Test func undoingADeletionTheServerTookSharesItAgain() throws {
        var room = Self.roomWithAlicesServerText("Deleted by mistake")
        room.act("alice") { $0.press(.tab, .character("x")) }
        room.pause("alice")
        room.deliver()
        #expect(room.server.live.isEmpty)
        #expect(Self.rect(room, "bob", "Deleted by mistake") == nil)

        room.act("alice") { $0.press(.escape, .character("u")) }
        room.pause("alice")
        room.deliver()
        #expect(room.editors["alice"]!.state.message == "Undone: the deletion of the text box")
        #expect(room.server.live.count == 1)
        #expect(room.server.live.first?.author == "alice")
        #expect(Self.rect(room, "bob", "Deleted by mistake") != nil)
        SharedSessionTests.expectEveryEditorAgrees(room, on: "Deleted by mistake")
        #expect(room.editors["alice"]!.state.sharing?.refusals.isEmpty == true)
    }

    /// Another session of Alice's moved it after her: undoing here would overwrite that move, so it is refused.
    @Test func undoAfterAnotherSessionChangedItIsRefused() throws {
        var room = SharedSessionTests.textFromTheLaptop("Twice moved")
        room.act("alice") { $0.press(.tab, .right, .right) }
        room.pause("alice")
        room.deliver()
        room.act("laptop") { $0.press(.tab, .down, .down) }
        room.pause("laptop")
        room.deliver()
        let version = room.server.live.first?.version
        let laptops = Self.rect(room, "laptop", "Twice moved")
        room.act("alice") { $0.press(.escape, .character("u")) }
        room.pause("alice")
        room.deliver()
        #expect(room.editors["alice"]!.state.message?.hasPrefix("Not undone") == true)
        #expect(room.server.live.first?.version == version)
        #expect(Self.rect(room, "alice", "Twice moved") == laptops)
    }
}
