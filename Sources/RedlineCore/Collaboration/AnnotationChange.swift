import Foundation

/// One change to one annotation, as the editor, the command line, XFDF import and the collaboration server speak
/// of it: who made it (`author`), which annotation (`name`, its `/NM`), which version of it the change was made
/// against (`baseVersion`, none for an addition), and the annotation after the change as an XFDF command with one
/// part (`<add>` or `<modify>` holding it, or `<delete><id page="N">NAME</id></delete>`). `operationID` is chosen
/// by whoever makes the change and is unique: a change sent twice is applied once.
public struct AnnotationChange: Sendable, Hashable, Codable {
    public enum Action: String, Sendable, Hashable, Codable, CaseIterable {
        case add, modify, delete
    }

    public var operationID: String
    public var author: String
    public var name: AnnotationID
    public var pageIndex: Int
    public var action: Action
    public var baseVersion: Int?
    public var xfdf: String

    public init(operationID: String, author: String, name: AnnotationID, pageIndex: Int, action: Action,
                baseVersion: Int?, xfdf: String) {
        self.operationID = operationID
        self.author = author
        self.name = name
        self.pageIndex = pageIndex
        self.action = action
        self.baseVersion = baseVersion
        self.xfdf = xfdf
    }

    /// The change that adds (`baseVersion` nil) or modifies `annotation`, written against the page it lies on.
    public static func writing(_ annotation: Annotation, pages: [PageGeometry], operationID: String, author: String,
                               baseVersion: Int?) -> AnnotationChange {
        let action: Action = baseVersion == nil ? .add : .modify
        let command = action == .add ? XFDFCommand(add: [annotation]) : XFDFCommand(modify: [annotation])
        return AnnotationChange(operationID: operationID, author: author, name: annotation.id, pageIndex: annotation.pageIndex,
                                action: action, baseVersion: baseVersion, xfdf: XFDF.document(command, pages: pages))
    }

    /// The change that deletes the annotation `name` on page `pageIndex`.
    public static func deleting(_ name: AnnotationID, pageIndex: Int, operationID: String, author: String,
                                baseVersion: Int?) -> AnnotationChange {
        let command = XFDFCommand(delete: [.init(pageIndex: pageIndex, id: name)])
        return AnnotationChange(operationID: operationID, author: author, name: name, pageIndex: pageIndex, action: .delete,
                                baseVersion: baseVersion, xfdf: XFDF.document(command, pages: []))
    }

    /// What the change does to a document's annotations, read against its pages: applied with
    /// `XFDFCommand.applied(to:)`, the function `redline xfdf import` applies a file's command with.
    public func command(pages: [PageGeometry]) throws -> XFDFCommand {
        try XFDF.command(from: Array(xfdf.utf8), pages: pages)
    }
}

extension XFDFCommand {
    /// The command as changes of one annotation each, in the order XFDF lists them: additions, modifications,
    /// deletions. `versions` gives the version each named annotation was last seen at (for the base of a
    /// modification or deletion); `operationID` names the change of each annotation.
    public func changes(author: String, pages: [PageGeometry], versions: [AnnotationID: Int],
                        operationID: (AnnotationID) -> String) -> [AnnotationChange] {
        add.map { AnnotationChange.writing($0, pages: pages, operationID: operationID($0.id), author: author, baseVersion: nil) }
            + modify.map {
                AnnotationChange.writing($0, pages: pages, operationID: operationID($0.id), author: author,
                                         baseVersion: versions[$0.id] ?? 0)
            }
            + delete.map {
                AnnotationChange.deleting($0.id, pageIndex: $0.pageIndex, operationID: operationID($0.id), author: author,
                                          baseVersion: versions[$0.id] ?? 0)
            }
    }
}
