/// Undo and redo as stacks of earlier states. States are small values, so whole copies are simplest and exact.
public struct EditHistory<State: Sendable>: Sendable {
    private var undoStack: [State] = []
    private var redoStack: [State] = []
    public let limit: Int

    public init(limit: Int = 500) {
        self.limit = limit
    }

    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }

    /// Call before changing `current`; a new change forgets whatever could be redone.
    public mutating func record(_ current: State) {
        undoStack.append(current)
        if undoStack.count > limit { undoStack.removeFirst(undoStack.count - limit) }
        redoStack.removeAll()
    }

    public mutating func undo(from current: State) -> State? {
        guard let previous = undoStack.popLast() else { return nil }
        redoStack.append(current)
        return previous
    }

    public mutating func redo(from current: State) -> State? {
        guard let next = redoStack.popLast() else { return nil }
        undoStack.append(current)
        return next
    }
}
