import Editor
import Foundation
import RedlineCore
import TerminalGrid
import Testing

/// A shared session through the state machine: editors talk to the server's own rules (`MemoryCollabServer`)
/// through their effects and `.shared` events, as the runner's link carries them.
@Suite struct SharedSessionTests {
    /// Alice and Bob in a document, with a text of Alice's that both have.
    static func roomWithAlicesText(_ words: String) -> SharedRoom {
        var room = SharedRoom()
        room.join("alice")
        room.join("bob")
        room.act("alice") { $0.placeText(words) }
        room.pause("alice")
        room.deliver()
        return room
    }

    /// Alice in two sessions (her desktop, "alice", and her "laptop"), with a text the desktop placed that both have.
    static func twoSessionsOfAlice(withText words: String) -> SharedRoom {
        var room = SharedRoom()
        room.join("alice")
        room.join("laptop", as: "alice")
        room.act("alice") { $0.placeText(words) }
        room.pause("alice")
        room.deliver()
        return room
    }

    /// `user`'s editor dies; a new one of Alice's opens the document, restores the crash journal (what the journal
    /// would hold: the edits and the versions they were made on), connects, and sends what it has.
    static func restartFromItsJournal(_ room: inout SharedRoom, _ user: String, seed: UInt64) {
        // What the journal file holds: the operations since opening, replayed as a restore reads them.
        var journaled = DocumentEdits()
        for operation in room.editors[user]!.state.journalOperations { journaled.apply(operation, bookmarkBase: BookmarkList()) }
        let shared = room.editors[user]!.state.journalShared
        room.leave(user)
        var restarted = EditorHarness(columns: 120, rows: 40, reviewer: Reviewer(author: "alice"))
        restarted.seedBase = seed
        EditorReducer.startSharing(&restarted.state, document: "doc")
        restarted.send(.journalFound(journaled, shared: shared))
        restarted.press(.character("y"))
        room.editors[user] = restarted
        room.connect(user)
        room.pause(user)
        room.deliver()
    }

    /// `user` answers the question on their screen, and what follows reaches the server and every editor.
    static func answer(_ answer: String, in room: inout SharedRoom, as user: String) {
        room.act(user) { $0.press(.character(Character(answer))) }
        room.pause(user)
        room.deliver()
    }

    /// Every editor shows as many annotations saying `words` as the server has, and waits for nothing.
    static func expectEveryEditorAgrees(_ room: SharedRoom, on words: String) {
        for (user, editor) in room.editors {
            let shown = editor.state.annotations.filter { $0.contents == words }
            #expect(shown.count == room.server.live.count, "\(user) shows \(shown.count)")
            #expect(editor.state.sharing?.waitingCount == 0, "\(user) still waits")
        }
    }

    func annotation(_ name: String, _ editor: EditorHarness) -> Annotation? {
        editor.state.annotations.first { $0.id.rawValue == name }
    }

    func changeFrames(_ effects: [EditorEffect]) -> [(op: String, base: Int?, xfdf: String)] {
        effects.flatMap { effect -> [(op: String, base: Int?, xfdf: String)] in
            guard case .sendShared(let frames) = effect else { return [] }
            return frames.compactMap { if case .change(let op, let base, let xfdf) = $0 { (op, base, xfdf) } else { nil } }
        }
    }

    /// Alice places a text; once the pause passes it is one `add`, and Bob sees it as Alice's, drawn over his page,
    /// without his cursor, page or zoom moving.
    @Test func aTextPlacedInOneEditorAppearsInTheOtherAsItsAuthors() throws {
        var room = SharedRoom()
        room.join("alice")
        room.join("bob")
        let bobBefore = (room.editors["bob"]!.state.cursor, room.editors["bob"]!.state.pageIndex, room.editors["bob"]!.state.zoom)
        room.act("alice") { $0.placeText("Check the total") }
        room.pause("alice")
        room.deliver()
        let bob = room.editors["bob"]!
        let shared = try #require(bob.state.annotations.first { $0.subtype == .freeText })
        #expect(shared.contents == "Check the total")
        #expect(shared.author == "alice")
        #expect(room.server.live.map(\.author) == ["alice"])
        #expect(bob.state.scene(environment: bob.environment).markup.contains {
            if case .text(let text) = $0.content { text.text == "Check the total" } else { false }
        })
        #expect((bob.state.cursor, bob.state.pageIndex, bob.state.zoom) == bobBefore)
        #expect(bob.state.message == "alice added a text box: “Check the total”")
        #expect(room.editors["alice"]!.state.sharing?.statusField == "shared as alice: live")
        // Alice's own text is listed once (replies thread under it) and drawn once, by her markup; Tab selects the
        // markup, not a copy of it.
        var alice = room.editors["alice"]!
        #expect(alice.state.annotations.filter { $0.subtype == .freeText }.map(\.contents) == ["Check the total"])
        #expect(alice.state.scene(environment: alice.environment).markup.count == 1)
        alice.press(.escape, .tab)
        #expect(alice.state.selection != nil)
        #expect(alice.state.interaction.selectedAnnotation == nil)
    }

    /// A run of nudges is one change, sent after the pause against the version the server acknowledged; the
    /// echo of it does not move the text twice.
    @Test func aRunOfNudgesIsOneModifyAndItsEchoMovesNothingTwice() throws {
        var room = Self.roomWithAlicesText("Moved")
        room.editors["alice"]!.clearEffects()
        room.act("alice") { editor in
            for _ in 0..<12 { editor.press(.right) }
        }
        let sent = changeFrames(room.editors["alice"]!.send(.shared(.flushDue)))
        #expect(sent.count == 1)
        #expect(sent.first?.base == 1)
        #expect(sent.first?.xfdf.contains("<modify>") == true)
        room.pause("alice")
        room.deliver()
        let alice = room.editors["alice"]!
        let bob = room.editors["bob"]!
        let name = try #require(alice.state.markup.items.first?.annotationName)
        let mine = try #require(alice.state.markup.items.first)
        let theirs = try #require(annotation(name.rawValue, bob))
        #expect(abs(theirs.rect.minX - MarkupAnnotations.rect(for: mine, measuredBy: alice.environment.measurer).minX) < 0.01)
        #expect(room.server.annotations[name.rawValue]?.version == 2)
        // Nothing is left to send: what Alice has is what the server has.
        #expect(changeFrames(room.editors["alice"]!.send(.shared(.flushDue))).isEmpty)
    }

    /// Bob cannot select, move or delete Alice's annotation on the page (the line says whose it is), but replies
    /// to it from the list, and Alice receives the reply.
    @Test func othersAnnotationsAreRefusedOnThePageButRepliesGoThrough() throws {
        var room = Self.roomWithAlicesText("Total?")
        room.act("bob") { $0.press(.tab) }
        #expect(room.editors["bob"]!.state.interaction.selectedAnnotation == nil)
        #expect(room.editors["bob"]!.state.message == "It is alice's: in a shared session only its author changes it (a lists it, r there replies)")
        room.act("bob") { editor in
            editor.press(.character("a"))
            editor.press(.character("r"))
            editor.type("Looks right")
            editor.press(.enter)
        }
        room.pause("bob")
        room.deliver()
        let reply = try #require(room.editors["alice"]!.state.annotations.first { $0.contents == "Looks right" })
        #expect(reply.author == "bob")
        #expect(reply.inReplyTo == room.editors["alice"]!.state.markup.items.first?.annotationName)
        // It threads under Alice's text in her list.
        let threads = room.editors["alice"]!.state.annotationThreads
        #expect(threads.first { $0.root.contents == "Total?" }?.replies.map(\.contents) == ["Looks right"])
    }

    /// Offline, changes wait (the status line counts them); on reconnecting they are sent, and a change sent
    /// before the drop and never answered goes again with its own operation id, applied once.
    @Test func changesMadeOfflineAreSentOnReconnectAndAResendIsAppliedOnce() throws {
        var room = SharedRoom()
        room.join("alice")
        room.join("bob")
        room.act("alice") { $0.placeText("First") }
        // Sent and committed, then the connection drops before Alice hears of it.
        let first = changeFrames(room.editors["alice"]!.send(.shared(.flushDue)))
        #expect(first.count == 1)
        room.serverTakes(.change(operation: first[0].op, base: nil, xfdf: first[0].xfdf), from: "alice", missing: "alice")
        room.disconnect("alice")
        room.act("alice") { editor in
            editor.press(.escape)
            editor.press(.character("j"))
            editor.placeText("Second")
        }
        room.pause("alice")
        #expect(room.editors["alice"]!.state.sharing?.statusField == "shared: offline, 2 waiting, retry in 2 s")
        room.connect("alice")
        room.deliver()
        #expect(room.server.live.count == 2)
        #expect(room.server.log.count == 2)
        #expect(room.editors["alice"]!.state.sharing?.statusField == "shared as alice: live")
        // Bob was connected throughout: he has both, once each.
        #expect(room.editors["bob"]!.state.annotations.filter { $0.subtype == .freeText }.map(\.contents) == ["First", "Second"])
        #expect(room.editors["alice"]!.state.sharing?.refusals.isEmpty == true)
    }

    /// Markup made offline is listed as the page shows it, before any server has it; a deletion waiting to be sent
    /// takes the server's copy out of the list at once; and the list then agrees with the server's once connected.
    @Test func markupIsListedAsThePageShowsItBeforeTheServerHasIt() throws {
        var room = SharedRoom()
        room.join("alice")
        room.act("alice") { $0.placeText("Shared first") }
        room.pause("alice")
        room.deliver()
        room.disconnect("alice")
        room.act("alice") { editor in
            editor.press(.escape)
            for _ in 0..<4 { editor.press(.down) }
            editor.placeText("Made offline")
        }
        room.pause("alice")
        var alice = room.editors["alice"]!
        let texts = { (editor: EditorHarness) in editor.state.annotations.filter { $0.subtype == .freeText }.map(\.contents) }
        #expect(texts(alice) == ["Shared first", "Made offline"])
        let offline = try #require(alice.state.annotations.first { $0.contents == "Made offline" })
        #expect(offline.author == "alice")
        // Listed once, drawn once (by the markup): the list's copy is not painted over it.
        #expect(alice.state.scene(environment: alice.environment).markup.count == 2)
        // The first one deleted offline: gone from the list now, though the server still has it.
        alice.press(.escape)
        for _ in 0..<2 where alice.selectedText?.text != "Shared first" { alice.press(.tab) }
        #expect(alice.selectedText?.text == "Shared first")
        alice.press(.character("x"))
        room.editors["alice"] = alice
        room.pause("alice")
        #expect(texts(room.editors["alice"]!) == ["Made offline"])
        #expect(room.server.live.count == 1 && room.server.live[0].element.contains("Shared first"))
        room.connect("alice")
        room.deliver()
        #expect(room.server.live.count == 1 && room.server.live[0].element.contains("Made offline"))
        #expect(texts(room.editors["alice"]!) == ["Made offline"])
    }

    /// Shapes, stamps and notes another tool's user shares are drawn over the page from their keys; a shape of the
    /// file that user moved is left out of the page's render and drawn where the server has it. No page is
    /// rendered again for either.
    @Test func shapesStampsAndNotesOthersShareAreDrawnOverThePage() throws {
        let square = Annotation(id: "file-square", pageIndex: 0, subtype: "Square", rect: Rect(x: 100, y: 100, width: 80, height: 40),
                                author: "bob", drawing: AnnotationDrawing(color: RGBColor(red: 255, green: 0, blue: 0), lineWidth: 2))
        var room = SharedRoom()
        room.join("alice", annotations: [square])
        room.join("bob", annotations: [square])
        func xfdf(_ body: String) -> String { "<xfdf xmlns=\"http://ns.adobe.com/xfdf/\"><add>\(body)</add></xfdf>" }
        room.serverTakes(.change(operation: "op-stamp", base: nil, xfdf: xfdf(
            "<stamp page=\"0\" name=\"stamp\" rect=\"300,300,450,350\" icon=\"Approved\" color=\"#00AA00\"/>")), from: "bob")
        room.serverTakes(.change(operation: "op-note", base: nil, xfdf: xfdf(
            "<text page=\"0\" name=\"note\" rect=\"50,700,70,720\"><contents>See here</contents></text>")), from: "bob")
        room.serverTakes(.change(operation: "op-reply", base: nil, xfdf: xfdf(
            "<text page=\"0\" name=\"reply\" rect=\"50,700,70,720\" inreplyto=\"note\"><contents>Agreed</contents></text>")), from: "bob")
        // The file's square, shared, then moved by Bob 50 points down.
        room.serverTakes(.change(operation: "op-square", base: nil, xfdf: xfdf(
            "<square page=\"0\" name=\"file-square\" rect=\"100,652,180,692\" color=\"#FF0000\" width=\"2\"/>")), from: "bob")
        let version = try #require(room.server.live.first { $0.name == "file-square" }?.version)
        room.serverTakes(.change(operation: "op-move", base: version, xfdf: """
            <xfdf xmlns="http://ns.adobe.com/xfdf/"><modify><square page="0" name="file-square" rect="100,602,180,642" \
            color="#FF0000" width="2"/></modify></xfdf>
            """), from: "bob")
        let alice = room.editors["alice"]!
        let scene = alice.state.scene(environment: alice.environment)
        let shapes = scene.sketches.map(\.shape)
        #expect(shapes.contains(.stamp(Rect(x: 300, y: 442, width: 150, height: 50), words: "APPROVED")))
        #expect(shapes.contains(.note(Rect(x: 50, y: 72, width: 20, height: 20))))
        // Inside its rect by half its line; 50 points lower than the file has it.
        #expect(shapes.contains(.rectangle(Rect(x: 101, y: 151, width: 78, height: 38))))
        // A reply is not drawn: readers show it in its thread.
        #expect(scene.sketches.count == 3)
        #expect(scene.annotationEdits.deleted == ["file-square"])
        #expect(alice.state.annotations.contains { $0.id == "reply" && $0.inReplyTo == "note" })
    }

    /// A change the server refuses is said and kept, never dropped in silence.
    @Test func aRefusalIsShownAndTheChangeStays() throws {
        var room = SharedRoom()
        room.join("alice")
        room.act("alice") { $0.placeText("Mine") }
        room.pause("alice")
        room.deliver()
        let name = try #require(room.editors["alice"]!.state.markup.items.first?.annotationName.rawValue)
        // Someone else deletes it meanwhile (the server's own doing, as a thread's deletion would).
        room.serverTakes(.change(operation: "gone", base: 1,
                                 xfdf: AnnotationChange.deleting(AnnotationID(name), pageIndex: 0, operationID: "gone", author: "alice",
                                                                 baseVersion: 1).xfdf),
                         from: "alice", missing: "alice")
        room.act("alice") { $0.press(.right) }
        room.pause("alice")
        room.deliver()
        let alice = room.editors["alice"]!
        #expect(alice.state.message?.hasPrefix("Not shared: ") == true)
        #expect(alice.state.sharing?.refusals.map(\.code) == ["deleted"])
        #expect(alice.state.markup.items.count == 1)
    }

    /// Undo sends the inverse: the text placed and shared is deleted on the server, and from the other editor.
    @Test func undoSendsTheInverseChange() throws {
        var room = Self.roomWithAlicesText("Oops")
        #expect(room.server.live.count == 1)
        room.act("alice") { editor in
            editor.press(.escape)
            editor.press(.character("u"))
        }
        room.pause("alice")
        room.deliver()
        #expect(room.server.live.isEmpty)
        #expect(room.editors["bob"]!.state.annotations.isEmpty)
    }

    /// Remote additions, changes and deletions leave the reviewer's selection alone unless what is selected goes.
    @Test func aRemoteDeletionClearsOnlyASelectionOfWhatWent() throws {
        var room = Self.roomWithAlicesText("Mine")
        room.act("bob") { $0.placeText("His") }
        room.pause("bob")
        room.deliver()
        room.act("alice") { editor in
            editor.press(.escape)
            editor.press(.tab)
        }
        let selected = room.editors["alice"]!.state.selection
        #expect(selected != nil)
        room.act("bob") { editor in
            editor.press(.escape)
            editor.press(.tab)
            editor.press(.character("x"))
        }
        room.pause("bob")
        room.deliver()
        #expect(room.editors["alice"]!.state.selection == selected)
        #expect(room.editors["alice"]!.state.annotations.filter { $0.author == "bob" }.isEmpty)
    }

    /// Replaying the recorded events on the first state gives the same annotations and the same frames to send.
    @Test func replayingASharedSessionGivesTheSameState() throws {
        var room = Self.roomWithAlicesText("One")
        room.act("bob") { $0.placeText("Two") }
        room.pause("bob")
        room.deliver()
        let bob = room.editors["bob"]!
        var replayed = bob.initialState
        EditorReducer.startSharing(&replayed, document: "doc")
        var effects: [EditorEffect] = []
        for (event, stamp) in bob.recorded {
            effects += EditorReducer.reduce(&replayed, event, at: stamp, environment: bob.environment)
        }
        #expect(replayed.annotations == bob.state.annotations)
        #expect(replayed.sharing?.replica.head == bob.state.sharing?.replica.head)
        let live = (room.sent["bob"] ?? []).compactMap { if case .change(_, _, let xfdf) = $0 { xfdf } else { nil } }
        #expect(!live.isEmpty)
        #expect(changeFrames(effects).map(\.xfdf) == live)
    }

    /// Undoing a deletion brings the text back for everyone: the server keeps the deleted name deleted, so it is
    /// shared again under a new one, and neither editor shows it twice.
    @Test func anUndoneDeletionIsSharedAgainUnderANewName() throws {
        var room = Self.roomWithAlicesText("Back again")
        room.act("alice") { editor in
            editor.press(.character("x"))
        }
        room.pause("alice")
        room.deliver()
        #expect(room.server.live.isEmpty)
        room.act("alice") { $0.press(.character("u")) }
        room.pause("alice")
        room.deliver()
        #expect(room.server.live.count == 1)
        #expect(room.editors["alice"]!.state.sharing?.refusals.isEmpty == true)
        let bob = room.editors["bob"]!
        #expect(bob.state.annotations.map(\.contents) == ["Back again"])
        let alice = room.editors["alice"]!
        #expect(alice.state.annotations.map(\.contents) == ["Back again"])
        #expect(alice.state.scene(environment: alice.environment).markup.count == 1)
        // Moving it afterwards modifies the new name.
        room.act("alice") { $0.press(.tab, .right, .right) }
        room.pause("alice")
        room.deliver()
        #expect(room.server.live.first?.version == 2)
        #expect(room.editors["alice"]!.state.sharing?.refusals.isEmpty == true)
    }

    /// An annotation Alice made in an earlier session comes from the server; moved here, it is one modify, and the
    /// echo does not move it twice.
    @Test func movingOnesOwnAnnotationFromTheServerIsOneModify() throws {
        var room = SharedRoom()
        room.join("alice")
        room.act("alice") { $0.placeText("Earlier") }
        room.pause("alice")
        room.deliver()
        // A new session of Alice's: the text is an annotation from the server now.
        room.leave("alice")
        room.join("alice")
        let before = try #require(room.editors["alice"]!.state.annotations.first)
        room.act("alice") { $0.press(.tab, .right, .right, .right) }
        room.pause("alice")
        room.deliver()
        let after = try #require(room.editors["alice"]!.state.annotations.first)
        #expect(after.rect.minX == before.rect.minX + 3)
        #expect(room.server.live.first?.version == 2)
        #expect(room.editors["alice"]!.state.sharing?.refusals.isEmpty == true)
    }

    /// After a crash, the journal restored in a shared session is sent once connected: nothing made offline is lost.
    @Test func aRestoredJournalIsSentOnceConnected() throws {
        var offline = EditorHarness(columns: 120, rows: 40, reviewer: Reviewer(author: "alice"))
        EditorReducer.startSharing(&offline.state, document: "doc")
        offline.send(.shared(.link(.offline(reason: "no server", retryIn: 1))))
        offline.placeText("Before the crash")
        offline.send(.shared(.flushDue))
        let journaled = offline.state.edits

        var room = SharedRoom()
        var restarted = EditorHarness(columns: 120, rows: 40, reviewer: Reviewer(author: "alice"))
        EditorReducer.startSharing(&restarted.state, document: "doc")
        restarted.send(.journalFound(journaled))
        restarted.press(.character("y"))
        room.editors["alice"] = restarted
        room.connect("alice")
        room.deliver()
        #expect(room.server.live.count == 1)
        #expect(room.server.live.first?.author == "alice")
    }

    /// Markup made offline and restored from the crash journal an hour later is dated when it was made, for the user
    /// and for everyone the server tells (it was dated at the restore).
    @Test func markupRestoredFromTheJournalIsDatedWhenItWasMade() throws {
        let made = PDFDate(year: 2026, month: 11, day: 22, hour: 9, minute: 5, offsetMinutes: 60)
        let moved = PDFDate(year: 2026, month: 11, day: 22, hour: 9, minute: 7, offsetMinutes: 60)
        var room = SharedRoom.aliceOffline(placing: "Made before the crash", at: made)
        room.act("alice") { editor in
            editor.time = moved
            editor.press(.right)
        }
        #expect(made != EditorHarness.now, "the restarted editor's clock reads another time")
        Self.restartFromItsJournal(&room, "alice", seed: 11)
        for user in ["alice", "bob"] {
            let shown = try #require(room.editors[user]!.state.annotations.first { $0.contents == "Made before the crash" }, "\(user)")
            #expect(shown.created == made && shown.modified == moved, "\(user): \(String(describing: shown.created)) \(String(describing: shown.modified))")
        }
    }

    /// A journal restored after the server already has its replies and states (the session had sent them before it
    /// ended), once the server's set is in: each is listed once, and nothing is sent twice.
    @Test func aJournalRestoredAfterTheSetCameListsSharedRepliesOnce() throws {
        var room = Self.roomWithAlicesText("Check the total")
        room.act("bob") { editor in
            editor.press(.escape, .escape, .character("a"), .character("G"), .character("r"))
            editor.type("Bob agrees")
            editor.press(.enter, .escape)
        }
        room.pause("bob")
        room.deliver()
        let journaled = room.editors["bob"]!.state.edits
        #expect(!journaled.annotations.added.isEmpty)
        let logged = room.server.log.count
        room.leave("bob")
        room.join("bob")
        room.deliver()
        room.act("bob") { editor in
            editor.send(.journalFound(journaled))
            editor.press(.character("y"))
        }
        room.pause("bob")
        room.deliver()
        let bob = room.editors["bob"]!
        #expect(bob.state.annotations.filter { $0.contents == "Bob agrees" }.count == 1)
        #expect(room.server.log.count == logged, "nothing sent again")
        #expect(bob.state.sharing?.waitingCount == 0)
    }

    /// Markup deleted and brought back by undo before the deletion was sent is listed as the server has it, dates
    /// included: a copy saved then agrees with everyone's.
    @Test func markupDeletedAndUndoneOfflineIsListedAsShared() throws {
        var room = Self.roomWithAlicesText("Kept")
        let shared = try #require(room.editors["alice"]!.state.annotations.first { $0.contents == "Kept" })
        room.disconnect("alice")
        // A minute later.
        room.editors["alice"]!.time = PDFDate(year: 2026, month: 11, day: 22, hour: 10, minute: 31, offsetMinutes: 60)
        room.act("alice") { $0.press(.escape, .tab, .character("x"), .escape, .character("u")) }
        room.pause("alice")
        let listed = try #require(room.editors["alice"]!.state.annotations.first { $0.contents == "Kept" })
        #expect(listed.modified == shared.modified && listed.created == shared.created)
        #expect(listed.rect == shared.rect)
    }

    /// A read-only member receives everything and sends nothing; the line says why.
    @Test func aReadOnlyMemberSendsNothing() throws {
        var editor = EditorHarness(columns: 120, rows: 40, reviewer: Reviewer(author: "reader"))
        EditorReducer.startSharing(&editor.state, document: "doc")
        editor.send(.shared(.frame(.welcome(document: "doc", user: "reader", access: "read", head: 0, snapshot: false))))
        editor.placeText("Mine only")
        #expect(changeFrames(editor.send(.shared(.flushDue))).isEmpty)
        #expect(editor.state.message?.contains("read-only") == true)
        #expect(editor.state.sharing?.statusField == "shared as reader: read-only")
    }

    /// What a server sends that does not fit (XFDF that is not XFDF, an annotation on a page this copy lacks, an event
    /// from the past) is said or ignored; nothing crashes and what was shown stays.
    @Test func hostileFramesChangeNothingTheyShouldNot() throws {
        var room = SharedRoom()
        room.join("alice")
        room.act("alice") { $0.placeText("Kept") }
        room.pause("alice")
        room.deliver()
        var editor = room.editors["alice"]!
        let before = editor.state.annotations
        let entry = CollabFrame.Entry(SharedAnnotation(name: "x", pageIndex: 0, author: "mallory", version: 1, deleted: false,
                                                       inReplyTo: nil, element: ""))
        let head = editor.state.sharing!.replica.head
        for xfdf in ["not xml at all", "<xfdf xmlns=\"http://ns.adobe.com/xfdf/\"><add><text name=\"x\" page=\"99\" rect=\"0,0,1,1\"/></add></xfdf>",
                     String(repeating: "<a>", count: 10_000)] {
            editor.send(.shared(.frame(.event(CollabFrame.Event(seq: head + 1, op: "evil", author: "mallory", time: "",
                                                                 action: .add, annotations: [entry], xfdf: xfdf)))))
        }
        editor.send(.shared(.frame(.event(CollabFrame.Event(seq: 1, op: "old", author: "mallory", time: "", action: .delete,
                                                             annotations: [], xfdf: "")))))
        editor.send(.shared(.frame(.ack(op: "never-sent", seq: 99, name: "y", version: 3))))
        editor.send(.shared(.frame(.refused(op: "never-sent", code: "stale", message: "no", current: nil, currentXFDF: nil))))
        #expect(editor.state.annotations == before)
        #expect(editor.state.markup.items.count == 1)
    }

    /// Alice deletes her text while Bob's reply to it is on its way and after his earlier reply and state reached
    /// the server: the server takes the ones it had with the text, refuses the late one, and Bob's copy lets all of
    /// them go (said), instead of keeping notes that answer nothing.
    @Test func aThreadDeletedByItsAuthorTakesTheOthersRepliesEverywhere() throws {
        var room = Self.roomWithAlicesText("To be withdrawn")
        func reply(_ words: String) {
            room.act("bob") { editor in
                editor.press(.escape, .character("a"), .character("G"), .character("r"))
                editor.type(words)
                editor.press(.enter, .escape)
            }
        }
        reply("First answer")
        room.act("bob") { $0.press(.character("a"), .character("g"), .character("s"), .character("a"), .escape) }
        room.pause("bob")
        room.deliver()
        #expect(room.server.live.count == 3)
        reply("Late answer")
        room.pause("bob")
        room.act("alice") { $0.press(.escape, .tab, .character("x")) }
        room.pause("alice")
        room.deliver()
        #expect(room.server.live.isEmpty)
        let bob = room.editors["bob"]!
        #expect(bob.state.annotations.isEmpty, "\(bob.state.annotations.map(\.contents))")
        // The late answer was refused (said), or reached the server first and went with the thread (said).
        #expect(bob.state.message?.contains("went with it") == true || bob.state.message?.hasPrefix("alice deleted a text box") == true,
                "\(bob.state.message ?? "")")
        #expect(room.editors["alice"]!.state.annotations.isEmpty)
    }

    /// Offline, the line says why; `q` with changes the server lacks says so instead of quitting, `:q!` keeps them
    /// in the journal, and with nothing waiting `q` quits without asking to save a copy.
    @Test func quittingASharedSessionKeepsWhatTheServerLacks() throws {
        var room = SharedRoom()
        room.join("alice")
        room.disconnect("alice")
        #expect(room.editors["alice"]!.state.message == "Shared session offline: the connection ended; your changes wait and are sent on reconnecting")
        room.act("alice") { $0.placeText("Unsent") }
        var editor = room.editors["alice"]!
        editor.press(.escape)
        #expect(editor.command("q").isEmpty)
        #expect(editor.state.message == "1 change not on the server yet: q once it says live · :q! keeps it for next time")
        #expect(CharacterWidth.of(editor.state.message ?? "") <= 80)
        #expect(editor.command("q!") == [.journalChanged, .quit])
        room.editors["alice"]!.press(.escape)
        room.editors["alice"]!.state.message = "Undone: a text box"
        room.connect("alice")
        // Said since it went offline or not, the line says the session is back.
        #expect(room.editors["alice"]!.state.message == "Shared session connected again")
        room.pause("alice")
        room.deliver()
        #expect(room.editors["alice"]!.command("q") == [.discardJournal, .quit])
        #expect(!EditorView.draw(room.editors["alice"]!.state, environment: room.editors["alice"]!.environment, picture: nil)
            .lines.joined().contains("[modified]"))
    }

    /// Who else is in the document, as the server says, on the status line.
    @Test func theStatusLineSaysWhoElseIsThere() {
        var editor = EditorHarness(reviewer: Reviewer(author: "alice"))
        EditorReducer.startSharing(&editor.state, document: "doc")
        editor.send(.shared(.frame(.welcome(document: "doc", user: "alice", access: "write", head: 0, snapshot: false))))
        editor.send(.shared(.frame(.presence(users: ["alice", "bob"]))))
        #expect(editor.state.sharing?.statusField == "shared as alice: live · with bob")
        editor.send(.shared(.frame(.presence(users: ["alice", "bob", "carol", "dan", "erin"]))))
        #expect(editor.state.sharing?.statusField == "shared as alice: live · with bob, carol and 2 more")
        editor.send(.shared(.link(.offline(reason: "gone", retryIn: 1))))
        #expect(editor.state.sharing?.statusField == "shared: offline, retry in 1 s")
    }

    /// A crash after an undone deletion: the journal restored replays the undo, and the text the server has under
    /// its new name is taken for it, not shared a second time.
    @Test func aRestoredJournalDoesNotShareAnUndoneDeletionTwice() throws {
        var room = Self.roomWithAlicesText("Only once")
        room.act("alice") { $0.press(.character("x")) }
        room.pause("alice")
        room.deliver()
        room.act("alice") { $0.press(.character("u")) }
        room.pause("alice")
        room.deliver()
        #expect(room.server.live.count == 1)
        let journaled = room.editors["alice"]!.state.edits
        room.leave("alice")
        var restarted = EditorHarness(columns: 120, rows: 40, reviewer: Reviewer(author: "alice"))
        restarted.seedBase = 99
        EditorReducer.startSharing(&restarted.state, document: "doc")
        restarted.send(.journalFound(journaled))
        restarted.press(.character("y"))
        room.editors["alice"] = restarted
        room.connect("alice")
        room.pause("alice")
        room.deliver()
        #expect(room.server.live.count == 1)
        #expect(room.editors["bob"]!.state.annotations.map(\.contents) == ["Only once"])
        // And it is hers to move: the move goes to the name the server has.
        room.act("alice") { $0.press(.escape, .tab, .right) }
        room.pause("alice")
        room.deliver()
        #expect(room.server.live.first?.version == 2)
        #expect(room.editors["alice"]!.state.sharing?.refusals.isEmpty == true)
    }

    /// A refused change whose question was still open when the editor quit keeps, in the crash journal, the version
    /// it was made on: restored in a new session it is refused and asked about again, never sent over the other
    /// session's change. The same for a move made and never sent before the crash.
    @Test(arguments: [true, false]) func aRestoredJournalNeverOverwritesAnotherSessionsChange(questionOpen: Bool) throws {
        var room = Self.twoSessionsOfAlice(withText: "Held over")
        if questionOpen {
            room.act("alice") { $0.press(.escape, .tab, .right, .right) }
            room.act("laptop") { $0.press(.escape, .tab, .down, .down, .down) }
            room.pause("alice")
            room.pause("laptop")
            room.deliver()
            #expect(room.editors["laptop"]!.screen().lines.joined().contains("Not shared, "))
        } else {
            // The laptop's move waits for its pause when the editor dies; the desktop moves it meanwhile.
            room.act("laptop") { $0.press(.escape, .tab, .down, .down, .down) }
            room.disconnect("laptop")
            room.act("alice") { $0.press(.escape, .tab, .right, .right) }
            room.pause("alice")
            room.deliver()
        }
        let desktops = try #require(room.server.live.first)
        #expect(!room.editors["laptop"]!.state.journalShared.bases.isEmpty)
        let laptopHad = try #require(room.editors["laptop"]!.state.annotations.first { $0.contents == "Held over" })
        Self.restartFromItsJournal(&room, "laptop", seed: 77)
        #expect(room.server.live.count == 1 && room.server.live[0].element == desktops.element, "the desktop's move stands")
        #expect(room.editors["laptop"]!.state.sharing?.refusals.map(\.code) == ["stale"])
        let question = room.editors["laptop"]!.screen().lines.joined()
        #expect(question.contains("Not shared, “Held over” changed meanwhile"), "\(question)")
        // Kept: the laptop's own as it showed it before the crash, not the desktop's with the laptop's move on top.
        room.act("laptop") { $0.press(.character("y")) }
        room.pause("laptop")
        room.deliver()
        #expect(room.server.live.count == 2)
        let kept = try #require(room.editors["alice"]!.state.annotations.first { $0.contents == "Held over" && $0.id.rawValue != desktops.name })
        #expect(kept.rect == laptopHad.rect, "\(kept.rect) where the laptop had \(laptopHad.rect)")
    }

    /// The markup's own session moves it and dies before sending; another session deletes it: the restored move is
    /// not shared again under a new name in silence (as an undone deletion would be), the user is asked.
    @Test(arguments: ["n", "y"]) func aRestoredMoveOfMarkupDeletedMeanwhileIsAskedAbout(answer: String) throws {
        var room = Self.twoSessionsOfAlice(withText: "Gone while away")
        room.act("alice") { $0.press(.escape, .tab, .character("H")) }
        room.disconnect("alice")
        room.act("laptop") { $0.press(.escape, .tab, .character("x")) }
        room.pause("laptop")
        room.deliver()
        #expect(room.server.live.isEmpty)
        Self.restartFromItsJournal(&room, "alice", seed: 78)
        #expect(room.server.live.isEmpty, "nothing shared before the user chose")
        let question = room.editors["alice"]!.screen().lines.joined()
        #expect(question.contains("Not shared, “Gone while away” was deleted meanwhile"), "\(question)")
        Self.answer(answer, in: &room, as: "alice")
        #expect(room.server.live.count == (answer == "y" ? 1 : 0))
        Self.expectEveryEditorAgrees(room, on: "Gone while away")
    }

    /// Alice moves her text on her desktop and, before hearing of it, on her laptop: the laptop's change is refused as
    /// stale, and once nothing is being edited she is asked: keep hers as a new annotation, or take the server's.
    func conflictingMoves() -> SharedRoom {
        var room = Self.twoSessionsOfAlice(withText: "Twice moved")
        room.act("alice") { $0.press(.escape, .tab, .right, .right) }
        room.act("laptop") { $0.press(.escape, .tab, .down, .down, .down) }
        room.pause("alice")
        room.pause("laptop")
        room.deliver()
        return room
    }

    /// A change of another session of the user's that arrives while this session's own change to the same annotation
    /// waits for its pause does not let this one overwrite it: this one is sent against the version it was made on,
    /// refused, and the user asked.
    @Test func aChangeMadeBeforeAnotherSessionsArrivedIsNotSentOverIt() throws {
        var room = Self.twoSessionsOfAlice(withText: "Moved twice")
        room.act("laptop") { $0.press(.escape, .tab, .down, .down, .down) }
        // The desktop's move reaches the server, and the laptop, before the laptop's pause has passed.
        room.act("alice") { $0.press(.escape, .tab, .right, .right) }
        room.pause("alice")
        room.deliver()
        let afterDesktop = room.server.log.count
        #expect(room.editors["laptop"]!.state.message?.hasPrefix("Another session of yours changed “Moved twice”") == true,
                "\(room.editors["laptop"]!.state.message ?? "")")
        room.pause("laptop")
        room.deliver()
        // Refused as stale: the server keeps the desktop's move, and the laptop's user is asked.
        #expect(room.server.log.count == afterDesktop)
        #expect(room.editors["laptop"]!.state.sharing?.refusals.map(\.code) == ["stale"])
        #expect(room.editors["laptop"]!.screen().lines.joined().contains("keeps yours as new"))
    }

    /// Both sessions of one user change the same annotation while the server is down; the first to reconnect wins,
    /// and the second is refused and asked, whichever order they come back in.
    @Test(arguments: [true, false]) func offlineChangesOfOneUsersTwoSessionsNeverOverwriteEachOther(laptopFirst: Bool) throws {
        var room = Self.twoSessionsOfAlice(withText: "Alpha box")
        room.act("laptop") { $0.press(.escape, .tab) }
        room.disconnect("alice")
        room.disconnect("laptop")
        room.act("alice") { $0.press(.character("H"), .character("H"), .character("H")) }
        room.act("laptop") { $0.press(.character("K"), .character("K")) }
        room.pause("alice")
        room.pause("laptop")
        let (first, second) = laptopFirst ? ("laptop", "alice") : ("alice", "laptop")
        room.connect(first)
        room.pause(first)
        room.deliver()
        let logged = room.server.log.count
        room.connect(second)
        room.pause(second)
        room.deliver()
        // The pause after the refusal (the runner's timer) sends nothing while the user has not chosen.
        room.pause(second)
        room.deliver()
        #expect(room.server.log.count == logged, "the second change is refused, not applied over the first")
        #expect(room.editors[second]!.state.sharing?.refusals.map(\.code) == ["stale"])
        #expect(room.editors[second]!.state.message?.contains("“Alpha box” changed meanwhile") == true,
                "\(room.editors[second]!.state.message ?? "")")
        #expect(room.editors[second]!.screen().lines.joined().contains("keeps yours as new"))
        #expect(room.editors[first]!.state.sharing?.refusals.isEmpty == true)
        // Taking the server's: nothing is sent, and the second session shows what the first did.
        room.act(second) { $0.press(.character("n")) }
        room.pause(second)
        room.deliver()
        #expect(room.server.log.count == logged)
        #expect(room.editors[second]!.state.sharing?.waitingCount == 0)
        let server = try #require(room.server.live.first)
        let shown = try #require(room.editors[second]!.state.annotations.first { $0.contents == "Alpha box" })
        #expect(server.element.contains("rect=\"\(PDFNumber.format(shown.rect.minX)),"), "\(server.element) \(shown.rect)")
    }

    /// The session that made a markup follows what another session of the user's does to it when it has nothing of
    /// its own waiting: its next nudge moves it on from there, not from where it was (which would undo the other's).
    @Test func onesOwnMarkupFollowsAnotherSessionsChange() throws {
        var room = Self.twoSessionsOfAlice(withText: "Followed")
        let before = try #require(room.editors["alice"]!.state.markup.items.first)
        room.act("laptop") { $0.press(.escape, .tab, .character("J")) }
        room.pause("laptop")
        room.deliver()
        let followed = try #require(room.editors["alice"]!.state.markup.items.first)
        #expect(followed.id == before.id)
        // Its colour keeps its name (the status line says "blue", and `c` goes on to the next in the cycle).
        if case .text(let now) = followed.content, case .text(let then) = before.content { #expect(now.color == then.color) }
        #expect(room.editors["alice"]!.state.message?.contains("which you changed here") != true)
        let moved = { (item: MarkupItem) in MarkupAnnotations.rect(for: item, measuredBy: FixedMeasurer()) }
        #expect(abs(moved(followed).minY - moved(before).minY - 10) < 0.01, "\(moved(before)) → \(moved(followed))")
        room.act("alice") { $0.press(.escape, .tab, .character("L")) }
        room.pause("alice")
        room.deliver()
        let server = try #require(room.server.live.first)
        let laptop = try #require(room.editors["laptop"]!.state.annotations.first { $0.contents == "Followed" })
        // Both moves kept: 10 down (the laptop's) and 10 right (Alice's).
        #expect(abs(laptop.rect.minY - moved(before).minY - 10) < 0.01 && abs(laptop.rect.minX - moved(before).minX - 10) < 0.01,
                "\(server.element)")
        #expect(room.editors.values.allSatisfy { $0.state.sharing?.refusals.isEmpty == true })
    }

    /// The markup's own session, refused because another session moved it first: `n` makes the markup the server's
    /// (a later move is a modify, never a deletion); `y` makes it a new annotation and leaves the server's as it is.
    @Test(arguments: ["n", "y"]) func theMarkupsOwnSessionResolvesAConflict(answer: String) throws {
        var room = Self.twoSessionsOfAlice(withText: "Contested")
        room.act("alice") { $0.press(.escape, .tab, .character("H")) }
        room.act("laptop") { $0.press(.escape, .tab, .character("K")) }
        room.pause("laptop")
        room.deliver()
        room.pause("alice")
        room.deliver()
        #expect(room.editors["alice"]!.state.sharing?.refusals.map(\.code) == ["stale"])
        let laptopMove = try #require(room.server.live.first).element
        room.act("alice") { $0.press(.character(Character(answer))) }
        room.pause("alice")
        room.deliver()
        if answer == "n" {
            #expect(room.server.live.count == 1 && room.server.live[0].element == laptopMove)
            room.act("alice") { $0.press(.escape, .tab, .character("J")) }
            room.pause("alice")
            room.deliver()
            #expect(room.server.live.count == 1, "moved, not deleted")
            #expect(room.server.log.last?.action == .modify)
        } else {
            #expect(room.server.live.count == 2)
            #expect(room.server.live.contains { $0.element == laptopMove }, "the server's stays as the laptop left it")
        }
        #expect(room.editors["alice"]!.state.sharing?.waitingCount == 0)
        #expect(room.editors.values.allSatisfy { $0.state.annotations.filter { $0.contents == "Contested" }.count == room.server.live.count })
    }

    /// Another session's deletion that arrives while this session's move of the markup waits for its pause: the move
    /// is not dropped in silence; once asked, `y` shares it as a new annotation, `n` lets it go with the deletion.
    @Test(arguments: ["n", "y"]) func aMoveWaitingWhenAnotherSessionsDeletionArrivesIsAskedAbout(answer: String) throws {
        var room = Self.twoSessionsOfAlice(withText: "Moved, then gone")
        room.act("alice") { $0.press(.escape, .tab, .character("H")) }
        room.act("laptop") { $0.press(.escape, .tab, .character("x")) }
        room.pause("laptop")
        room.deliver()
        #expect(room.server.live.isEmpty)
        let alice = room.editors["alice"]!
        #expect(alice.state.markup.items.count == 1, "the move is not dropped before the user says so")
        // Held for her answer, not on its way.
        #expect(alice.state.sharing?.statusField == "shared as alice: 1 awaiting your answer")
        let question = alice.screen().lines.joined()
        #expect(question.contains("Not shared, “Moved, then gone” was deleted meanwhile")
                    && question.contains("keeps yours as new"), "\(question)")
        Self.answer(answer, in: &room, as: "alice")
        #expect(room.server.live.count == (answer == "y" ? 1 : 0))
        Self.expectEveryEditorAgrees(room, on: "Moved, then gone")
    }

    /// The server's refusal coming while the user types a new text says nothing over what they type: the line is
    /// theirs until the text is placed, then the refusal is said and the question asked.
    @Test func aRefusalWhileTypingWaitsForTheText() throws {
        var room = Self.twoSessionsOfAlice(withText: "Raced")
        room.act("alice") { $0.press(.escape, .tab, .character("H")) }
        room.act("laptop") { $0.press(.escape, .tab, .character("K")) }
        room.pause("alice")
        room.pause("laptop")
        room.act("laptop") { editor in
            editor.press(.escape, .character("t"))
            editor.type("Half typed")
        }
        let typing = room.editors["laptop"]!.state.message
        room.deliver()
        #expect(room.editors["laptop"]!.state.sharing?.refusals.map(\.code) == ["stale"])
        #expect(room.editors["laptop"]!.state.message == typing, "\(room.editors["laptop"]!.state.message ?? "")")
        #expect(!room.editors["laptop"]!.screen().lines.joined().contains("Not shared, "))
        room.act("laptop") { $0.press(.enter) }
        #expect(room.editors["laptop"]!.screen().lines.joined().contains("Not shared, “Raced” changed meanwhile"))
    }

    /// `:w` over an existing file, once the user says yes, writes what any shared copy holds: the annotations as
    /// the session shows them (Alice's text, in Bob's copy), not only the session's own.
    @Test func aCopyWrittenOverAnExistingFileHoldsTheSharedAnnotations() throws {
        var room = Self.roomWithAlicesText("In every copy")
        var first: SaveRequest?
        room.act("bob") { editor in
            if case .save(let request)? = editor.command("w /tmp/existing.pdf").last { first = request }
        }
        let asked = try #require(first)
        #expect(asked.sharedAnnotations?.contains { $0.contents == "In every copy" } == true)
        var second: SaveRequest?
        room.act("bob") { editor in
            editor.send(.saveFinished(.destinationExists(path: "/tmp/existing.pdf")))
            if case .save(let request)? = editor.press(.character("y")).last { second = request }
        }
        let overwriting = try #require(second)
        #expect(overwriting.allowOverwrite && overwriting.destination == "/tmp/existing.pdf")
        #expect(overwriting.sharedAnnotations == asked.sharedAnnotations)
    }

    /// Alice's desktop and laptop; the laptop placed a text, which the desktop has as the server's annotation.
    static func textFromTheLaptop(_ words: String) -> SharedRoom {
        var room = SharedRoom()
        room.join("alice")
        room.join("laptop", as: "alice")
        room.act("laptop") { $0.placeText(words) }
        room.pause("laptop")
        room.deliver()
        return room
    }

    /// A move of the server's annotation (one of Alice's from her other session) waiting for its pause when the
    /// other session deletes it: asked about, never dropped; `y` shares it as a new annotation where it was moved.
    @Test(arguments: ["n", "y"]) func aMoveOfTheServersAnnotationWaitingWhenItIsDeletedIsAskedAbout(answer: String) throws {
        var room = Self.textFromTheLaptop("Theirs, moved")
        let before = try #require(room.editors["alice"]!.state.annotations.first { $0.contents == "Theirs, moved" })
        room.act("alice") { $0.press(.escape, .tab, .character("L")) }
        room.act("laptop") { $0.press(.escape, .tab, .character("x")) }
        room.pause("laptop")
        room.deliver()
        #expect(room.server.live.isEmpty)
        let question = room.editors["alice"]!.screen().lines.joined()
        #expect(question.contains("Not shared, “Theirs, moved” was deleted meanwhile"), "\(question)")
        room.act("alice") { $0.press(.character(Character(answer))) }
        if answer == "y" { #expect(room.editors["alice"]!.state.message == "Yours is shared as a new annotation") }
        room.pause("alice")
        room.deliver()
        #expect(room.server.live.count == (answer == "y" ? 1 : 0))
        Self.expectEveryEditorAgrees(room, on: "Theirs, moved")
        for (user, editor) in room.editors where answer == "y" {
            let shown = editor.state.annotations.first { $0.contents == "Theirs, moved" }
            #expect(shown.map { abs($0.rect.minX - before.rect.minX - 10) < 0.01 } == true, "\(user): where Alice moved it")
        }
    }

    /// A change the server took before the editor died is in the server's version already: a restored journal sends
    /// nothing for it, asks nothing, and moves nothing twice.
    @Test func aRestoredJournalDoesNotSendAgainWhatTheServerTook() throws {
        var room = Self.textFromTheLaptop("Taken once")
        room.act("alice") { $0.press(.escape, .tab, .character("L")) }
        room.pause("alice")
        let writes = room.journalWrites["alice"] ?? 0
        room.deliver()
        // The server's answer and the echo of her own change settle it: the journal is written again, saying so.
        #expect((room.journalWrites["alice"] ?? 0) > writes)
        let taken = try #require(room.server.live.first)
        let logged = room.server.log.count
        #expect(room.editors["alice"]!.state.journalShared.unsent == [])
        Self.restartFromItsJournal(&room, "alice", seed: 79)
        #expect(room.server.log.count == logged, "nothing sent again")
        #expect(room.server.live.count == 1 && room.server.live[0].element == taken.element)
        #expect(room.editors["alice"]!.state.sharing?.refusals.isEmpty == true)
        #expect(room.editors["alice"]!.state.focus == .page, "nothing asked")
        let shown = try #require(room.editors["alice"]!.state.annotations.first { $0.contents == "Taken once" })
        let onLaptop = try #require(room.editors["laptop"]!.state.annotations.first { $0.contents == "Taken once" })
        #expect(shown.rect == onLaptop.rect, "moved once, as the server has it")
    }

    /// The copy kept in a conflict follows what the user's other session does to it, as every other annotation
    /// does: a later change here goes on from there and does not undo the other's.
    @Test func aKeptCopyFollowsTheOtherSession() throws {
        var room = Self.textFromTheLaptop("Copy kept")
        room.act("alice") { $0.press(.escape, .tab, .character("H")) }
        room.act("laptop") { $0.press(.escape, .tab, .character("J")) }
        room.pause("laptop")
        room.deliver()
        room.pause("alice")
        room.deliver()
        room.act("alice") { $0.press(.character("y")) }
        room.pause("alice")
        room.deliver()
        #expect(room.server.live.count == 2)
        let kept = try #require(room.editors["alice"]!.state.edits.annotations.added.first).id
        #expect(room.editors["alice"]!.state.interaction.selectedAnnotation == kept, "the selection goes with the copy kept")
        room.act("laptop") { editor in
            editor.press(.escape)
            for _ in 0..<4 where editor.state.interaction.selectedAnnotation != kept { editor.press(.tab) }
            editor.press(.character("J"))
        }
        #expect(room.editors["laptop"]!.state.interaction.selectedAnnotation == kept)
        room.pause("laptop")
        room.deliver()
        let server = { try #require(room.editors["laptop"]!.state.annotations.first { $0.id == kept }) }
        let onAlice = try #require(room.editors["alice"]!.state.annotations.first { $0.id == kept })
        #expect(onAlice.rect == (try server()).rect, "Alice's copy follows the laptop's move")
        #expect(room.editors["alice"]!.state.message?.contains("which you changed here") != true)
        room.act("alice") { editor in
            for _ in 0..<4 where editor.state.interaction.selectedAnnotation != kept { editor.press(.tab) }
            editor.press(.character("L"))
        }
        room.pause("alice")
        room.deliver()
        let after = try server()
        #expect(abs(after.rect.minY - onAlice.rect.minY) < 0.01 && abs(after.rect.minX - onAlice.rect.minX - 10) < 0.01,
                "both moves kept: \(onAlice.rect) → \(after.rect)")
        #expect(room.editors.values.allSatisfy { $0.state.sharing?.waitingCount == 0 && $0.state.focus == .page })
    }

    /// A deletion that loses to another session's move is asked about as a deletion: `n` keeps the server's (shown
    /// again where the other session put it), `y` deletes it all the same; either way every editor and the server agree.
    @Test(arguments: ["n", "y"]) func aDeletionRefusedAfterAnotherSessionsMoveIsAskedAsOne(answer: String) throws {
        var room = Self.twoSessionsOfAlice(withText: "Doomed")
        room.act("laptop") { $0.press(.escape, .tab, .character("J")) }
        room.act("alice") { $0.press(.escape, .tab, .character("x")) }
        room.pause("laptop")
        room.deliver()
        room.pause("alice")
        room.deliver()
        #expect(room.editors["alice"]!.state.sharing?.refusals.map(\.code) == ["stale"])
        let question = room.editors["alice"]!.screen().lines.joined()
        #expect(question.contains("Deletion not shared, “Doomed” changed meanwhile") && question.contains("deletes it all the same"),
                "\(question)")
        Self.answer(answer, in: &room, as: "alice")
        #expect(room.server.live.count == (answer == "n" ? 1 : 0))
        Self.expectEveryEditorAgrees(room, on: "Doomed")
        if answer == "n" {
            let alice = try #require(room.editors["alice"]!.state.annotations.first { $0.contents == "Doomed" })
            let laptop = try #require(room.editors["laptop"]!.state.annotations.first { $0.contents == "Doomed" })
            #expect(alice.rect == laptop.rect, "where the laptop moved it")
        }
    }

    /// Two sessions making the same change: the second has nothing to send, and its next change is made on the
    /// server's version (not refused as made on the old one).
    @Test func theSameChangeTwiceLeavesTheNextOneFree() throws {
        var room = Self.twoSessionsOfAlice(withText: "Same move")
        room.act("laptop") { $0.press(.escape, .tab, .character("J")) }
        room.act("alice") { $0.press(.escape, .tab, .character("J")) }
        room.pause("alice")
        room.deliver()
        room.pause("laptop")
        room.deliver()
        #expect(room.editors["laptop"]!.state.sharing?.waitingCount == 0)
        let logged = room.server.log.count
        room.act("laptop") { $0.press(.character("L")) }
        room.pause("laptop")
        room.deliver()
        #expect(room.server.log.count == logged + 1)
        #expect(room.editors["laptop"]!.state.sharing?.refusals.isEmpty == true)
    }

    /// Both sessions send the same move before either hears of the other's: the second is refused, but says what
    /// the server now has, so nobody is asked and nothing waits.
    @Test func theSameMoveSentByBothSessionsAsksNothing() throws {
        var room = Self.twoSessionsOfAlice(withText: "Same")
        room.act("alice") { $0.press(.escape, .tab, .character("K")) }
        room.act("laptop") { $0.press(.escape, .tab, .character("K")) }
        room.pause("alice")
        room.pause("laptop")
        room.deliver()
        #expect(room.editors["laptop"]!.state.sharing?.refusals.map(\.code) == ["stale"])
        #expect(!room.editors["laptop"]!.screen().lines.joined().contains("keeps yours as new"))
        #expect(room.editors["laptop"]!.state.message == "Another session of yours made the same change: nothing to share")
        #expect(room.editors.values.allSatisfy { $0.state.sharing?.waitingCount == 0 })
        let logged = room.server.log.count
        room.act("laptop") { $0.press(.character("L")) }
        room.pause("laptop")
        room.deliver()
        #expect(room.server.log.count == logged + 1)
    }

    @Test func aConflictTakenFromTheServerLeavesOneAnnotationWhereTheServerHasIt() throws {
        var room = conflictingMoves()
        let laptop = room.editors["laptop"]!
        #expect(laptop.state.sharing?.refusals.map(\.code) == ["stale"])
        #expect(room.editors["laptop"]!.screen().lines.joined().contains("keeps yours as new"))
        room.act("laptop") { $0.press(.character("n")) }
        room.pause("laptop")
        room.deliver()
        #expect(room.server.live.count == 1)
        let desktop = try #require(room.editors["alice"]!.state.markup.items.first)
        let onLaptop = try #require(room.editors["laptop"]!.state.annotations.first)
        #expect(abs(onLaptop.rect.minX - MarkupAnnotations.rect(for: desktop, measuredBy: FixedMeasurer()).minX) < 0.01)
        #expect(abs(onLaptop.rect.minY - MarkupAnnotations.rect(for: desktop, measuredBy: FixedMeasurer()).minY) < 0.01)
    }

    @Test func aConflictKeptBecomesANewAnnotationForEveryone() throws {
        var room = conflictingMoves()
        room.act("laptop") { $0.press(.character("y")) }
        room.pause("laptop")
        room.deliver()
        #expect(room.server.live.count == 2)
        #expect(room.server.live.allSatisfy { $0.author == "alice" })
        #expect(room.editors["alice"]!.state.annotations.filter { $0.contents == "Twice moved" }.count == 2)
        #expect(room.editors["laptop"]!.state.annotations.filter { $0.contents == "Twice moved" }.count == 2)
        #expect(room.editors["laptop"]!.state.sharing?.waitingCount == 0)
    }

    /// The copy kept in a conflict is the session's like any annotation it made: Tab reaches it, the arrow keys move
    /// it and `x` deletes it, and everyone sees both.
    @Test func aConflictKeptIsSelectedMovedAndDeletedLikeAnyOther() throws {
        var room = conflictingMoves()
        let serversOwn = try #require(room.server.live.first).name
        room.act("laptop") { $0.press(.character("y")) }
        room.pause("laptop")
        room.deliver()
        let kept = try #require(room.editors["laptop"]!.state.edits.annotations.added.first).id
        var reached: [AnnotationID] = []
        room.act("laptop") { editor in
            editor.press(.escape)
            for _ in 0..<3 {
                editor.press(.tab)
                if let selected = editor.state.interaction.selectedAnnotation { reached.append(selected) }
            }
        }
        #expect(reached.contains(kept), "Tab reaches the kept copy: \(reached)")
        #expect(reached.contains(AnnotationID(serversOwn)), "and the server's")
        let before = try #require(room.editors["alice"]!.state.annotations.first { $0.id == kept })
        room.act("laptop") { editor in
            for _ in 0..<3 where editor.state.interaction.selectedAnnotation != kept { editor.press(.tab) }
            editor.press(.right, .right, .right, .right)
        }
        room.pause("laptop")
        room.deliver()
        let moved = try #require(room.editors["alice"]!.state.annotations.first { $0.id == kept })
        #expect(abs(moved.rect.minX - before.rect.minX - 4) < 0.01 && moved.rect.minY == before.rect.minY)
        #expect(room.server.log.last?.action == .modify && room.server.log.last?.annotations.first?.name == kept.rawValue)
        let onLaptop = try #require(room.editors["laptop"]!.state.annotations.first { $0.id == kept })
        #expect(onLaptop.rect == moved.rect)
        room.act("laptop") { $0.press(.character("x")) }
        room.pause("laptop")
        room.deliver()
        #expect(room.server.live.map(\.name) == [serversOwn])
        #expect(room.editors.values.allSatisfy { $0.state.annotations.filter { $0.contents == "Twice moved" }.count == 1 })
        #expect(room.editors.values.allSatisfy { $0.state.sharing?.waitingCount == 0 })
    }
}
