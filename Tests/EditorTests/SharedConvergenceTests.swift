@testable import Editor
import Foundation
import RedlineCore
import TerminalGrid
import Testing
import TestSupport

/// Random sessions of three editors against the server's rules: placing, nudging, recolouring, deleting, undoing,
/// replying and setting states, with connections dropped and resumed and changes delivered late. However they
/// interleave, once everyone is connected and quiet every editor shows what the server has, apart from the changes
/// the server refused it (each said), and nothing crashes.
@Suite struct SharedConvergenceTests {
    static let users = ["alice", "bob", "carol"]

    @Test(arguments: 0..<24) func randomSessionsConverge(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed) &* 7919 &+ 17)
        var room = SharedRoom()
        for user in Self.users { room.join(user) }
        for step in 0..<80 {
            let user = Self.users[random.int(0...2)]
            switch random.int(0...11) {
            case 0, 1:
                room.act(user) { editor in
                    editor.press(.escape, .escape)
                    for _ in 0..<random.int(0...6) { editor.press(.down) }
                    editor.placeText("\(user) \(step)")
                }
            case 2, 3:
                let moves = random.int(1...5)
                room.act(user) { editor in
                    editor.press(.escape, .tab)
                    for _ in 0..<moves { editor.press(.right) }
                }
            case 4:
                room.act(user) { $0.press(.escape, .tab, .character("c")) }
            case 5:
                room.act(user) { $0.press(.escape, .tab, .character("x")) }
            case 6:
                room.act(user) { $0.press(.escape, .character(random.chance() ? "u" : "U")) }
            case 7:
                room.act(user) { editor in
                    editor.press(.escape, .escape, .character("a"), .character("G"), .character("r"))
                    editor.type("reply \(step)")
                    editor.press(.enter, .escape)
                }
            case 8:
                room.act(user) { $0.press(.escape, .escape, .character("a"), .character("g"), .character("s"), .character("a"), .escape) }
            case 9:
                if room.connected.contains(user) { room.disconnect(user) } else { room.connect(user) }
            case 10:
                room.pause(user)
            default:
                room.deliver()
            }
        }
        for user in Self.users where !room.connected.contains(user) { room.connect(user) }
        for _ in 0..<4 {
            for user in Self.users {
                room.act(user) { $0.press(.escape, .escape) }
                room.pause(user)
            }
            room.deliver()
        }
        // A newcomer lays the whole set out from a snapshot; the others laid most of it out event by event, in place.
        room.join("dave")
        let server = Set(room.server.live.map(\.name))
        var versions: [String: Set<String>] = [:]
        for user in Self.users + ["dave"] {
            let editor = room.editors[user]!
            let sharing = editor.state.sharing!
            // What was laid out event by event, in place (additions, changes, removals), is what the whole layout
            // gives (in the order events came, where the whole layout takes the server's), and its index is true.
            var laidAfresh = editor.state
            EditorReducer.layOutShared(&laidAfresh)
            func unordered(_ annotations: [Annotation]) -> [AnnotationID: Annotation] {
                Dictionary(annotations.map { annotation in
                    var bare = annotation
                    bare.order = 0
                    return (annotation.id, bare)
                }, uniquingKeysWith: { first, _ in first })
            }
            let laid = editor.state.document.annotations
            #expect(unordered(laid) == unordered(laidAfresh.document.annotations), "seed \(seed): \(user)'s list drifted")
            #expect(laid.count == laidAfresh.document.annotations.count)
            #expect(laid.indices.allSatisfy { laid[$0].order == $0 && sharing.laidIndex[laid[$0].id] == $0 } && sharing.laidIndex.count == laid.count,
                    "seed \(seed): \(user)'s index drifted")
            // The server's copy of each markup is listed (under the name it is shared by), so the annotations say it all.
            let shown = Dictionary(editor.state.annotations.map { ($0.id.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
            #expect(sharing.waitingCount == 0, "seed \(seed): \(user) still has changes waiting")
            #expect(server.isSubset(of: Set(shown.keys)), "seed \(seed): \(user) misses \(server.subtracting(shown.keys))")
            // The session's own markup is listed, under the name it is shared by, whatever the server has of it.
            let markup = Set(editor.state.markup.items.filter(\.drawsSomething).map { sharing.sharedName($0.annotationName).rawValue })
            #expect(markup.isSubset(of: Set(shown.keys)), "seed \(seed): \(user) does not list \(markup.subtracting(shown.keys))")
            // The only refusals such sessions meet: a reply or state to an annotation deleted meanwhile (or to one
            // such reply), kept here and said.
            #expect(sharing.refusals.allSatisfy { $0.message.hasPrefix("it answers") }, "seed \(seed): \(sharing.refusals)")
            let refused = Set(sharing.refusals.map(\.name))
            func orphaned(_ name: String) -> Bool {
                var current = shown[name]?.inReplyTo?.rawValue
                var seen: Set<String> = []
                while let parent = current, seen.insert(parent).inserted {
                    if refused.contains(parent) || !server.contains(parent) { return true }
                    current = shown[parent]?.inReplyTo?.rawValue
                }
                return false
            }
            let unexplained = Set(shown.keys).subtracting(server).filter { !refused.contains($0) && !orphaned($0) }
            #expect(unexplained.isEmpty, "seed \(seed): \(user) shows \(unexplained), which the server does not have")
            for name in server {
                guard let annotation = shown[name] else { continue }
                versions[name, default: []].insert("\(annotation.contents ?? "") \(annotation.rect) \(annotation.author ?? "")")
            }
        }
        // Every editor shows each shared annotation the same.
        #expect(versions.values.allSatisfy { $0.count == 1 }, "seed \(seed): \(versions.filter { $0.value.count > 1 })")
    }
}

