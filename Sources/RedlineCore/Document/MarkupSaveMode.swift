/// How a save keeps the markup: burned into the pages (the final copy), or as annotations every reader can still
/// move, answer or delete (the review).
public enum MarkupSaveMode: String, Sendable, Hashable, CaseIterable, Codable {
    case flatten
    case annotations
}
