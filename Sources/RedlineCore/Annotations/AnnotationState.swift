/// An author-specific state (ISO 32000-1 §12.5.6.3): a state model and a state in it. Files hold both as
/// text strings, `(Review)` and `(Accepted)`; other models a file may carry are kept as they are.
public struct AnnotationState: Sendable, Hashable, Codable {
    public var model: String
    public var value: String

    public init(model: String, value: String) {
        self.model = model
        self.value = value
    }

    public static let reviewModel = "Review"
    public static let markedModel = "Marked"

    public static let accepted = Self(model: reviewModel, value: "Accepted")
    public static let rejected = Self(model: reviewModel, value: "Rejected")
    public static let cancelled = Self(model: reviewModel, value: "Cancelled")
    public static let completed = Self(model: reviewModel, value: "Completed")
    public static let none = Self(model: reviewModel, value: "None")
    public static let marked = Self(model: markedModel, value: "Marked")
    public static let unmarked = Self(model: markedModel, value: "Unmarked")

    /// Every state Redline can set, in the order menus show them.
    public static let all: [Self] = [.accepted, .rejected, .cancelled, .completed, .none, .marked, .unmarked]

    /// Reads what a file holds: a missing model is inferred from the state, a missing state is the
    /// model's default (None for Review, Unmarked for Marked), as the specification says.
    public init?(model: String?, value: String?) {
        switch (model, value) {
        case (nil, nil):
            return nil
        case (let model?, nil):
            self.init(model: model, value: model.caseInsensitiveCompare(Self.markedModel) == .orderedSame ? "Unmarked" : "None")
        case (nil, let value?):
            guard let known = Self.named(value) else { return nil }
            self = known
        case (let model?, let value?):
            self.init(model: model, value: value)
        }
    }

    /// `accepted`, `Marked`, …: one of the states Redline can set, by name, any case.
    public static func named(_ name: String) -> Self? {
        all.first { $0.value.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// Files differ in case (`Review`, `review`): models compare without it.
    public func isIn(model other: String) -> Bool { model.caseInsensitiveCompare(other) == .orderedSame }
}
