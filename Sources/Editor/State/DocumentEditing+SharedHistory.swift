import Foundation
import RedlineCore

/// A shared session's changes to the server's annotations are edits made on the server's version. Once the server
/// takes one, its version is the new base and the edit is let go; what the history says of that annotation is then
/// said again against the new base, so that undo sends the inverse as a new change (and redo the change again)
/// rather than finding the edit gone. Each such annotation remembers the version it was said against: an undo while
/// the server has another one (someone changed it since) would overwrite that change, and is refused.
extension DocumentEditing {
    /// `id`'s change, as the edits have it now, is the server's at `version`; `before` is what the server had before
    /// it. A deletion the server took is undone by sharing a copy of what was deleted under `copyName`, since the
    /// server keeps a deleted name deleted.
    mutating func rebaseHistory(of id: AnnotationID, onto version: Int, formerly before: Annotation?, copyName: AnnotationID) {
        let settled = edits.annotations
        let move = settled.moved[id], contents = settled.changedContents[id], restyle = settled.restyled[id]
        let deleted = settled.deleted.contains(id)
        var copy = before
        copy?.id = copyName
        copy?.inReplyTo = nil
        func rebased(_ value: AnnotationEdits.Move?) -> AnnotationEdits.Move? {
            guard let move else { return value }
            if value == move { return nil }
            let dx = (value?.dx ?? 0) - move.dx, dy = (value?.dy ?? 0) - move.dy
            return abs(dx) < 1e-9 && abs(dy) < 1e-9 ? nil : AnnotationEdits.Move(dx: dx, dy: dy, modified: value?.modified ?? move.modified)
        }
        func rebased(_ value: AnnotationEdits.ContentsChange?) -> AnnotationEdits.ContentsChange? {
            guard let contents else { return value }
            if value == contents { return nil }
            return value ?? AnnotationEdits.ContentsChange(contents: before?.contents ?? "", modified: before?.modified ?? contents.modified)
        }
        func rebased(_ value: AnnotationEdits.Restyle?) -> AnnotationEdits.Restyle? {
            guard let restyle else { return value }
            if value == restyle { return nil }
            // Back to what the server had of what the taken change changed, and nothing else.
            return value ?? AnnotationEdits.Restyle(color: restyle.color == nil ? nil : before?.drawing.color,
                                                    fontSize: restyle.fontSize == nil ? nil : before?.drawing.fontSize,
                                                    modified: before?.modified ?? restyle.modified)
        }
        history.rewrite { operation in
            var rewritten = operation
            rewritten.changes = operation.changes.compactMap { change -> DocumentChange? in
                guard change.annotationName == id else { return change }
                switch change {
                case .deleteAnnotation(_, true) where deleted:
                    return copy.map { .removeAnnotation(annotation: $0, index: Int.max) }
                case _ where deleted:
                    // What was done to it before it went is gone with it on the server.
                    return nil
                case .moveAnnotation(_, let before, let after):
                    return .moveAnnotation(id: id, before: rebased(before), after: rebased(after))
                case .changeContents(_, let before, let after):
                    return .changeContents(id: id, before: rebased(before), after: rebased(after))
                case .restyleAnnotation(_, let before, let after):
                    return .restyleAnnotation(id: id, before: rebased(before), after: rebased(after))
                default:
                    return change
                }
            }
            return rewritten.changes.isEmpty ? nil : rewritten
        }
        rebasedVersions[deleted ? copyName : id] = deleted ? nil : version
    }

    /// Whether `operation` may be undone or redone with the server at `versions`: every annotation of the server's it
    /// changes is still at the version its history was said against.
    func stillCurrent(_ operation: DocumentOperation, versions: (AnnotationID) -> Int?) -> Bool {
        operation.changes.allSatisfy { change in
            guard let name = change.annotationName, let known = rebasedVersions[name] else { return true }
            return versions(name) == known
        }
    }
}
