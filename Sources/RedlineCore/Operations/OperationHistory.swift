/// One author's undo and redo over a document others may change too: the stacks hold this author's own
/// operations only, so undo takes back what they did last and leaves everyone else's work in place.
public struct OperationHistory: Sendable, Hashable {
    public private(set) var undoable: [DocumentOperation] = []
    public private(set) var redoable: [DocumentOperation] = []
    public let limit: Int

    public init(limit: Int = 500) {
        self.limit = limit
    }

    public var canUndo: Bool { !undoable.isEmpty }
    public var canRedo: Bool { !redoable.isEmpty }

    /// A new operation of the author's: it can be undone, and whatever could be redone is forgotten.
    public mutating func record(_ operation: DocumentOperation) {
        undoable.append(operation)
        if undoable.count > limit { undoable.removeFirst(undoable.count - limit) }
        redoable.removeAll()
    }

    /// Replaces the last undoable operation: a run of nudges grows one operation rather than making many.
    public mutating func amendLast(_ operation: DocumentOperation) {
        guard !undoable.isEmpty else { return record(operation) }
        undoable[undoable.count - 1] = operation
    }

    public mutating func popUndo() -> DocumentOperation? { undoable.popLast() }
    public mutating func popRedo() -> DocumentOperation? { redoable.popLast() }

    /// After an undo: the undone operation can be redone.
    public mutating func pushRedo(_ operation: DocumentOperation) { redoable.append(operation) }

    /// Every operation said again by `transform` (nil leaves it out): what an operation changed now means something
    /// else (a shared annotation whose change the server took has a new version to be changed from).
    public mutating func rewrite(_ transform: (DocumentOperation) -> DocumentOperation?) {
        undoable = undoable.compactMap(transform)
        redoable = redoable.compactMap(transform)
    }

    /// After a redo (or a refused undo): back on the undo stack without forgetting the redo stack.
    public mutating func pushUndo(_ operation: DocumentOperation) { undoable.append(operation) }
}
