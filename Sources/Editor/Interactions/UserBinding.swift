import RedlineCore
import TerminalGrid

/// The user's own handling of keys or mouse actions, placed before a component (`require(toFail:)`: the
/// component proceeds only if the binding declines) or beside it (`allowSimultaneousRecognition(with:)`).
/// Its handler runs on the editor's loop, with the editor as it is; what it wants done it returns as
/// requests (the `try…` verbs), which the editor performs at once.
public final class UserBinding: @unchecked Sendable {
    public enum Outcome: Sendable {
        /// Not this binding's business: a component waiting for it proceeds.
        case declined
        /// Taken: a component waiting for it does not proceed.
        case handled
        /// Taken, and these interactions are performed now, in order.
        case perform([InteractionRequest])
    }

    public let name: String
    public let keys: Set<Key>
    public let contexts: Set<KeymapContext>
    let handler: @Sendable (InteractionAttempt) -> Outcome

    public init(_ name: String, keys: Set<Key>, in contexts: Set<KeymapContext> = [.page],
                handler: @escaping @Sendable (InteractionAttempt) -> Outcome) {
        self.name = name
        self.keys = keys
        self.contexts = contexts
        self.handler = handler
    }
}

/// A key or mouse action a user's binding is asked about: where it happened and the editor as it was.
public struct InteractionAttempt: Sendable {
    public let key: Key
    public let context: KeymapContext
    /// The pointer for a mouse action (in cells), the cursor for a key (display points).
    public let location: InteractionLocation
    public let space: InteractionSpace
    public let state: EditorState
    public let environment: EditorEnvironment

    public var point: Point { location.point }

    /// An attempt at a location of the editor as it is: what a binding's handler gets, and what code outside the
    /// loop can build from a state to ask `canActivate`.
    public init(key: Key, context: KeymapContext = .page, location: InteractionLocation, state: EditorState,
                environment: EditorEnvironment) {
        self.key = key
        self.context = context
        self.location = location
        self.space = EditorReducer.space(state, location.space, environment)
        self.state = state
        self.environment = environment
    }

    /// `canActivate(at:in:)` of a component at this attempt's point.
    public func canActivate(_ component: InteractionComponent) -> Bool {
        component.canActivate(at: location.point, in: location.space, on: self)
    }
}

/// An interaction asked for by the user's own binding or code (`tryToSelectAnnotation(at:in:)`): performed with
/// the component's conditions and callbacks, whether or not the component is enabled. Without a location it
/// happens at the cursor.
public struct InteractionRequest: Sendable, Hashable {
    public var component: InteractionComponentName
    public var location: InteractionLocation?

    public init(_ component: InteractionComponentName, at location: InteractionLocation? = nil) {
        self.component = component
        self.location = location
    }
}
