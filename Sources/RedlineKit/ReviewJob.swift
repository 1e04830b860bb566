import Foundation
import RedlineCore

/// `redline reply` and `redline review`: one change to a document's threads, saved to a new file through
/// the same saver as the editor.
public struct ReviewJob {
    public var input: String
    public var password: String?
    public var author: String
    public var output: String
    /// Appended to the original's bytes where that is right, or written anew.
    public var strategy = SaveStrategy.append
    /// Told how the copy was written, with the document it was made from.
    public var written: (WriteOutcome, DocumentDescription) -> Void = { _, _ in }

    public init(input: String, password: String?, author: String, output: String) {
        self.input = input
        self.password = password
        self.author = author
        self.output = output
    }

    public enum Change: Sendable {
        case reply(to: AnnotationID, text: String)
        case state(AnnotationState, on: AnnotationID)
    }

    /// Makes the change and writes the copy; returns the new annotation.
    @discardableResult
    public func run(_ change: Change, now: Date = Date(), newID: AnnotationID = AnnotationID(UUID().uuidString))
        throws -> Annotation {
        let description = try MarkupApplication.describe(input, password: password)
        let editing = ThreadEditing(author: author, path: input, allowsChanges: description.allowsAnnotationChanges)
        let stamp = ThreadEditing.Stamp(date: PDFDate(now, timeZone: .current), id: newID)
        var edits = AnnotationEdits()
        let made: Annotation
        switch change {
        case .reply(let id, let text):
            made = try editing.reply(to: id, text: text, current: description.annotations, edits: &edits, stamp: stamp)
        case .state(let state, let id):
            made = try editing.setState(state, on: id, current: description.annotations, edits: &edits, stamp: stamp)
        }
        let outcome = try DocumentSaver(services: RedlineServices()).save(DocumentEdits(annotations: edits), source: input,
                                                                           password: password, description: description, to: output,
                                                                           strategy: strategy)
        written(outcome, description)
        return made
    }
}
