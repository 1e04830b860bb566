/// The change between two sets of annotations as XFDF carries it between reviewers (and between the collaboration
/// server and its clients): annotations added, annotations changed (whole, by name), annotations deleted by name.
public struct XFDFCommand: Sendable, Equatable {
    public struct Deletion: Sendable, Hashable {
        public var pageIndex: Int
        public var id: AnnotationID

        public init(pageIndex: Int, id: AnnotationID) {
            self.pageIndex = pageIndex
            self.id = id
        }
    }

    public var add: [Annotation]
    public var modify: [Annotation]
    public var delete: [Deletion]

    public init(add: [Annotation] = [], modify: [Annotation] = [], delete: [Deletion] = []) {
        self.add = add
        self.modify = modify
        self.delete = delete
    }

    public var isEmpty: Bool { add.isEmpty && modify.isEmpty && delete.isEmpty }

    /// What the command adds and changes, in that order, without copying them into one array.
    var incoming: LazySequence<FlattenSequence<[[Annotation]]>> { [add, modify].lazy.joined() }

    /// The set after the command: deleted names gone, changed ones replaced where they stood, added ones at the end.
    /// An added annotation whose name the set already holds replaces it (an import matches by name).
    public func applied(to annotations: [Annotation]) -> [Annotation] {
        let gone = Set(delete.map(\.id))
        var replacements: [AnnotationID: Annotation] = [:]
        replacements.reserveCapacity(modify.count + add.count)
        for annotation in modify + add { replacements[annotation.id] = annotation }
        var result: [Annotation] = []
        result.reserveCapacity(annotations.count + add.count)
        var placed = Set<AnnotationID>(minimumCapacity: annotations.count + add.count)
        for annotation in annotations where !gone.contains(annotation.id) {
            if let replacement = replacements[annotation.id] {
                var kept = replacement
                kept.order = annotation.order
                result.append(kept)
            } else {
                result.append(annotation)
            }
            placed.insert(annotation.id)
        }
        var next = (annotations.map(\.order).max() ?? -1) + 1
        for annotation in add where !placed.contains(annotation.id) && !gone.contains(annotation.id) {
            var new = annotation
            new.order = next
            next += 1
            result.append(new)
            placed.insert(annotation.id)
        }
        return result
    }

    /// What turns `old` into `new`: names only in `new` are added, names only in `old` deleted, names in both whose
    /// annotation differs (its place in the document's order aside) changed.
    public static func between(_ old: [Annotation], _ new: [Annotation]) -> XFDFCommand {
        func unordered(_ annotation: Annotation) -> Annotation {
            var copy = annotation
            copy.order = 0
            return copy
        }
        let before = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Set(new.map(\.id))
        var command = XFDFCommand()
        for annotation in new {
            if let was = before[annotation.id] {
                if unordered(was) != unordered(annotation) { command.modify.append(annotation) }
            } else {
                command.add.append(annotation)
            }
        }
        command.delete = old.filter { !after.contains($0.id) }.map { Deletion(pageIndex: $0.pageIndex, id: $0.id) }
        return command
    }
}
