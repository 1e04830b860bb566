import Foundation
import RedlineCore

/// The editor's interaction components (docs/interactions.md): each user interaction by name, to switch off,
/// give conditions and callbacks, and perform from the user's own bindings.
public final class Interactions: @unchecked Sendable {
    private let stores: [InteractionComponentName: ComponentStore]
    private let lock = NSLock()
    private var delivery: (@Sendable (InteractionRequest) -> Void)?
    private var reporting = false

    public init() {
        stores = Dictionary(uniqueKeysWithValues: InteractionComponentName.allCases.map { ($0, ComponentStore()) })
    }

    public subscript(_ name: InteractionComponentName) -> InteractionComponent {
        InteractionComponent(name: name.rawValue, members: [name], stores: stores)
    }

    public subscript(_ name: InteractionCompositeName) -> InteractionComponent {
        InteractionComponent(name: name.rawValue, members: name.members, stores: stores)
    }

    public var selectAnnotation: InteractionComponent { self[.selectAnnotation] }
    public var deselectAnnotation: InteractionComponent { self[.deselectAnnotation] }
    public var transformAnnotation: InteractionComponent { self[.transformAnnotation] }
    public var editAnnotation: InteractionComponent { self[.editAnnotation] }
    public var openLinkAnnotation: InteractionComponent { self[.openLinkAnnotation] }
    public var fastScroll: InteractionComponent { self[.fastScroll] }
    public var smartZoom: InteractionComponent { self[.smartZoom] }
    public var toggleUserInterface: InteractionComponent { self[.toggleUserInterface] }
    public var selectText: InteractionComponent { self[.selectText] }
    public var deselectText: InteractionComponent { self[.deselectText] }
    public var allAnnotationInteractions: InteractionComponent { self[.allAnnotationInteractions] }
    public var allTextInteractions: InteractionComponent { self[.allTextInteractions] }
    public var allInteractions: InteractionComponent { self[.allInteractions] }

    func store(_ name: InteractionComponentName) -> ComponentStore { stores[name]! }

    /// Every binding some component waits for or runs beside, each once, in the components' order.
    var bindings: [UserBinding] {
        var seen: [UserBinding] = []
        for name in InteractionComponentName.allCases {
            for binding in store(name).prerequisites + store(name).companions where !seen.contains(where: { $0 === binding }) {
                seen.append(binding)
            }
        }
        return seen
    }

    // MARK: Performing interactions from outside the loop

    /// Set by the editor while it runs: how a `try…` call reaches its loop.
    public var deliver: (@Sendable (InteractionRequest) -> Void)? {
        get { lock.withLock { delivery } }
        set { lock.withLock { delivery = newValue } }
    }

    /// Whether the editor reports every activation and refusal as an effect (for `--events` and callback
    /// commands): off when nothing listens.
    public var reportsActivations: Bool {
        get { lock.withLock { reporting } }
        set { lock.withLock { reporting = newValue } }
    }

    /// Each asks the running editor to perform the interaction at a point, with the component's conditions and
    /// callbacks but whatever its `isEnabled`. False when no editor is running to ask.
    @discardableResult public func tryToSelectAnnotation(at point: Point, in space: CoordinateSpaceKind) -> Bool { request(.selectAnnotation, point, space) }
    @discardableResult public func tryToDeselectAnnotation(at point: Point, in space: CoordinateSpaceKind) -> Bool { request(.deselectAnnotation, point, space) }
    @discardableResult public func tryToEditAnnotation(at point: Point, in space: CoordinateSpaceKind) -> Bool { request(.editAnnotation, point, space) }
    @discardableResult public func tryToOpenLinkAnnotation(at point: Point, in space: CoordinateSpaceKind) -> Bool { request(.openLinkAnnotation, point, space) }
    @discardableResult public func tryToFastScroll(at point: Point, in space: CoordinateSpaceKind) -> Bool { request(.fastScroll, point, space) }
    @discardableResult public func tryToSmartZoom(at point: Point, in space: CoordinateSpaceKind) -> Bool { request(.smartZoom, point, space) }
    @discardableResult public func tryToToggleUserInterface(at point: Point, in space: CoordinateSpaceKind) -> Bool { request(.toggleUserInterface, point, space) }
    @discardableResult public func tryToSelectText(at point: Point, in space: CoordinateSpaceKind) -> Bool { request(.selectText, point, space) }
    @discardableResult public func tryToDeselectText(at point: Point, in space: CoordinateSpaceKind) -> Bool { request(.deselectText, point, space) }

    private func request(_ component: InteractionComponentName, _ point: Point, _ space: CoordinateSpaceKind) -> Bool {
        guard let deliver else { return false }
        deliver(InteractionRequest(component, at: InteractionLocation(point, in: space)))
        return true
    }
}
