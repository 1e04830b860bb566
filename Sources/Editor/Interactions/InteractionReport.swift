import RedlineCore

/// One activation or refusal of a component, as `--events FILE` writes it (a JSON line) and a callback command
/// reads it on its standard input (docs/interactions.md).
public struct InteractionReport: Sendable, Equatable, Codable {
    public enum Outcome: String, Sendable, Codable {
        case activated, refused
    }

    public struct Points: Sendable, Equatable, Codable {
        public var cells: Point
        public var display: Point
        public var pdf: Point
    }

    public struct LinkSummary: Sendable, Equatable, Codable {
        public var rect: Rect
        public var target: String
        /// The address of a URI, the page (from 1) of a destination, the action of a named link.
        public var value: String
    }

    public var component: InteractionComponentName
    public var outcome: Outcome
    /// Why it was refused: `disabled`, or which condition returned false.
    public var reason: String?
    /// What started it: the key's name, or `request` for a `try…` call from code.
    public var via: String
    /// The time of the event, ISO 8601.
    public var time: String
    /// From 1.
    public var page: Int
    /// The point in every space, and the space it was given in.
    public var space: CoordinateSpaceKind
    public var point: Points
    public var annotation: InteractionSubject?
    public var link: LinkSummary?
    public var targetRect: Rect?
}

extension InteractionReport.LinkSummary {
    init(_ link: PageLink) {
        rect = link.rect
        target = link.target.kindName
        switch link.target {
        case .destination(let destination): value = String(destination.pageIndex + 1)
        case .uri(let address): value = address
        case .named(let action): value = action
        case .unsupported(let description): value = description
        }
    }
}
