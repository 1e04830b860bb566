import Foundation
import RedlineCore
import TerminalGrid

/// One interaction component, or a composite of several (`allAnnotationInteractions`): whether it is enabled,
/// its activation conditions and callbacks, and the user's bindings it waits for or runs beside. A composite
/// sets every member and asks every member. A reference, as the seed's components are: the editor's loop reads
/// it while the embedding code may change it, so every access is under a lock.
public final class InteractionComponent: @unchecked Sendable {
    public let name: String
    public let members: [InteractionComponentName]
    private let stores: [InteractionComponentName: ComponentStore]

    init(name: String, members: [InteractionComponentName], stores: [InteractionComponentName: ComponentStore]) {
        self.name = name
        self.members = members
        self.stores = stores
    }

    private var memberStores: [ComponentStore] { members.compactMap { stores[$0] } }

    /// All enabled by default. Off, the interaction does nothing (the message line says which component
    /// refused). A composite is enabled when every member is.
    public var isEnabled: Bool {
        get { memberStores.allSatisfy(\.isEnabled) }
        set { memberStores.forEach { $0.isEnabled = newValue } }
    }

    /// Adds a condition after the ones already there (to every member of a composite).
    public func addActivationCondition(_ condition: ActivationCondition) {
        memberStores.forEach { $0.add(condition) }
    }

    public func addActivationCondition(
        _ test: @escaping @Sendable (_ context: InteractionContext, _ point: Point, _ space: InteractionSpace) -> Bool) {
        addActivationCondition(ActivationCondition("a condition added in code", test))
    }

    public func addActivationCallback(_ callback: @escaping ActivationCallback) {
        memberStores.forEach { $0.add(callback) }
    }

    /// The component waits for the binding: on the binding's keys it proceeds only if the binding declines
    /// (the seed's "require to fail").
    public func require(toFail binding: UserBinding) {
        memberStores.forEach { $0.addPrerequisite(binding) }
    }

    /// The binding runs beside the component on its keys, and the component proceeds whatever the binding does
    /// (the seed's "simultaneous recognition").
    public func allowSimultaneousRecognition(with binding: UserBinding) {
        memberStores.forEach { $0.addCompanion(binding) }
    }

    /// Whether a key or mouse action (`Click`, `WheelDown`) starts one of the members' interactions in a context.
    public func contains(_ key: Key, in context: KeymapContext = .page, keymaps: Keymaps = .standard) -> Bool {
        members.contains { $0.contains(key, in: context, keymaps: keymaps) }
    }

    /// Whether a user's binding is one the component waits for or runs beside.
    public func contains(_ binding: UserBinding) -> Bool {
        memberStores.contains { $0.prerequisites.contains { $0 === binding } || $0.companions.contains { $0 === binding } }
    }

    /// Evaluates the conditions at a point of the editor as it is in `attempt`, ignoring `isEnabled`: what a
    /// binding asks before it reimplements the interaction. A composite can activate when every member can.
    public func canActivate(at point: Point, in space: CoordinateSpaceKind, on attempt: InteractionAttempt) -> Bool {
        members.allSatisfy { member in
            EditorReducer.conditionsHold(member, attempt.state, InteractionLocation(point, in: space), attempt.environment)
        }
    }
}

/// One component's settings.
final class ComponentStore: @unchecked Sendable {
    private let lock = NSLock()
    private var enabled = true
    private var conditionList: [ActivationCondition] = []
    private var callbackList: [ActivationCallback] = []
    private var prerequisiteList: [UserBinding] = []
    private var companionList: [UserBinding] = []

    var isEnabled: Bool {
        get { lock.withLock { enabled } }
        set { lock.withLock { enabled = newValue } }
    }
    var conditions: [ActivationCondition] { lock.withLock { conditionList } }
    var callbacks: [ActivationCallback] { lock.withLock { callbackList } }
    var prerequisites: [UserBinding] { lock.withLock { prerequisiteList } }
    var companions: [UserBinding] { lock.withLock { companionList } }

    func add(_ condition: ActivationCondition) { lock.withLock { conditionList.append(condition) } }
    func add(_ callback: @escaping ActivationCallback) { lock.withLock { callbackList.append(callback) } }
    func addPrerequisite(_ binding: UserBinding) { lock.withLock { if !prerequisiteList.contains(where: { $0 === binding }) { prerequisiteList.append(binding) } } }
    func addCompanion(_ binding: UserBinding) { lock.withLock { if !companionList.contains(where: { $0 === binding }) { companionList.append(binding) } } }
}
