import RedlineCore

/// A test an interaction must pass to happen. A component's conditions run in the order they were added until
/// one returns false: any false refuses, and the ones after it are not asked. So a condition is a question,
/// never a place for side effects (an activation callback is).
public struct ActivationCondition: Sendable {
    /// How a refusal names it: "config.toml line 12", or what the code that added it said.
    public var name: String
    let test: @Sendable (InteractionContext, Point, InteractionSpace) -> Bool
    /// What a refusal adds to the condition's name, about the thing refused ("it is bob's").
    var explanation: (@Sendable (InteractionContext) -> String?)?
    /// For a rule of Redline's own: the message line's words for a refusal, instead of naming the condition.
    var plainRefusal: (@Sendable (InteractionContext) -> String?)?

    public init(_ name: String, _ test: @escaping @Sendable (_ context: InteractionContext, _ point: Point, _ space: InteractionSpace) -> Bool) {
        self.name = name
        self.test = test
    }

    /// Why it refused `context`: its name, and what it says about the thing refused.
    func refusal(_ context: InteractionContext) -> String {
        explanation?(context).map { "\(name): \($0)" } ?? name
    }

    /// A shared session's rule (`[collab] author_only`): only an annotation's author selects, moves or edits it on
    /// the page; replies and review states through the list stay open to everyone. The server refuses the rest anyway.
    public static var sharedAuthorOnly: ActivationCondition {
        var condition = author(.self)
        condition.name = "shared: only its author changes it"
        condition.explanation = { context in
            guard let annotation = context.annotation else { return nil }
            guard let author = annotation.author, !author.isEmpty else { return "it names no author" }
            return "it is \(author)'s"
        }
        condition.plainRefusal = { context in
            let author = context.annotation?.author.flatMap { $0.isEmpty ? nil : $0 }
            return (author.map { "It is \($0)'s" } ?? "It names no author") + ": in a shared session only its author changes it (a lists it, r there replies)"
        }
        return condition
    }

    public func holds(_ context: InteractionContext, _ point: Point, _ space: InteractionSpace) -> Bool {
        test(context, point, space)
    }

    // MARK: What config.toml can say

    /// Holds when every one of the parts holds: one `[[interactions.NAME.when]]` table.
    public static func all(_ parts: [ActivationCondition], name: String) -> ActivationCondition {
        ActivationCondition(name) { context, point, space in parts.allSatisfy { $0.holds(context, point, space) } }
    }

    /// Holds when one of the alternatives holds: `any = [{…}, {…}]` in a `[[interactions.NAME.when]]` table.
    public static func any(_ alternatives: [ActivationCondition]) -> ActivationCondition {
        ActivationCondition("any") { context, point, space in alternatives.contains { $0.holds(context, point, space) } }
    }

    /// The markup or annotation is of one of these kinds. An interaction about no annotation passes.
    public static func kinds(_ kinds: Set<String>) -> ActivationCondition {
        ActivationCondition("kinds") { context, _, _ in context.annotation.map { kinds.contains($0.kind) } ?? true }
    }

    /// The markup or annotation is of none of these kinds.
    public static func kindsNot(_ kinds: Set<String>) -> ActivationCondition {
        ActivationCondition("kinds_not") { context, _, _ in context.annotation.map { !kinds.contains($0.kind) } ?? true }
    }

    /// The interaction is on one of these pages (from 0).
    public static func pages(_ indexes: Set<Int>) -> ActivationCondition {
        ActivationCondition("pages") { context, _, _ in indexes.contains(context.pageIndex) }
    }

    public static func pagesNot(_ indexes: Set<Int>) -> ActivationCondition {
        ActivationCondition("pages_not") { context, _, _ in !indexes.contains(context.pageIndex) }
    }

    /// The point, in PDF user space, is inside (or outside) a rectangle of PDF user space.
    public static func point(inside box: PDFBox, _ inside: Bool) -> ActivationCondition {
        ActivationCondition(inside ? "point_inside" : "point_outside") { _, point, space in
            let pdf = space.convert(point, to: .pdf)
            let contained = pdf.x >= box.x1 && pdf.x <= box.x2 && pdf.y >= box.y1 && pdf.y <= box.y2
            return contained == inside
        }
    }

    public enum Authorship: String, Sendable, CaseIterable {
        case `self`, others
    }

    /// The markup or annotation is the reviewer's own (`self`) or someone else's (`others`).
    public static func author(_ who: Authorship) -> ActivationCondition {
        ActivationCondition("author") { context, _, _ in
            guard let annotation = context.annotation else { return true }
            return (annotation.author == context.reviewer) == (who == .self)
        }
    }

    /// The link leads to one of these kinds of target (`destination`, `uri`, `named`, `unsupported`).
    public static func linkTargets(_ kinds: Set<String>) -> ActivationCondition {
        ActivationCondition("link_targets") { context, _, _ in context.link.map { kinds.contains($0.target.kindName) } ?? true }
    }
}

/// What an activation callback gets: the same as a condition. It runs just before the interaction and cannot
/// stop it.
public typealias ActivationCallback = @Sendable (_ context: InteractionContext, _ point: Point, _ space: InteractionSpace) -> Void
