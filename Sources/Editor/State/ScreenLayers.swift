import RedlineCore

/// What the tool is doing on the page: nothing, typing a text markup, or drawing ink.
public enum ToolActivity: Sendable, Equatable {
    case idle
    case typing(TextDraft)
    case inking(InkSession)
    case commenting(CommentDraft)
}

/// A panel beside the page. One at a time; it stays open under overlays and under a tool's work.
public enum SidePanel: Sendable, Equatable {
    case annotations(AnnotationPanel)
    case bookmarks(BookmarkPanel)
    case outline(OutlinePanel)
}

/// Something on top of everything else, taking the keyboard until it goes: the key overlay, the `:` line, a
/// question. They stack: a question asked over the `:` line over a panel goes, and the `:` line and the panel
/// are back as they were.
public enum Overlay: Sendable, Equatable {
    /// The key overlay, scrolled past `scroll` rows.
    case help(scroll: Int)
    case commandLine(String)
    /// `/` or `?` and the pattern being typed.
    case searchLine(SearchPrompt)
    /// `f`: labels on the links in view, and the label typed so far.
    case linkHints(typed: String)
    case question(Confirmation)
}

/// What has the keyboard: the top overlay, else the tool's work, else the side panel, else the page.
public enum Focus: Sendable, Equatable {
    case page
    case typing(TextDraft)
    case inking(InkSession)
    case commenting(CommentDraft)
    case selectingText(TextSelection)
    case panel(SidePanel)
    case overlay(Overlay)
}

extension Focus {
    /// The keymap keys are read through here; nil for the link hints, which read labels.
    public var keymapContext: KeymapContext? {
        switch self {
        case .page: .page
        case .typing, .commenting: .typing
        case .inking: .ink
        case .selectingText: .selection
        case .panel(.annotations): .annotations
        case .panel(.bookmarks): .bookmarks
        case .panel(.outline): .outline
        case .overlay(.linkHints): nil
        case .overlay(.commandLine), .overlay(.searchLine): .typing
        case .overlay(.question): .questions
        case .overlay(.help): .help
        }
    }
}

extension Interaction {
    public var focus: Focus {
        if let top = overlays.last { return .overlay(top) }
        switch activity {
        case .typing(let draft): return .typing(draft)
        case .inking(let session): return .inking(session)
        case .commenting(let draft): return .commenting(draft)
        case .idle: break
        }
        if let textSelection { return .selectingText(textSelection) }
        if let panel { return .panel(panel) }
        return .page
    }

    /// Replaces the top overlay (the `:` line as it is typed, the help as it scrolls).
    mutating func replaceTopOverlay(with overlay: Overlay) {
        guard !overlays.isEmpty else { return overlays.append(overlay) }
        overlays[overlays.count - 1] = overlay
    }

    mutating func closeTopOverlay() {
        _ = overlays.popLast()
    }

    public var annotationPanel: AnnotationPanel? {
        if case .annotations(let panel)? = panel { return panel }
        return nil
    }

    public var outlinePanel: OutlinePanel? {
        if case .outline(let panel)? = panel { return panel }
        return nil
    }

    public var bookmarkPanel: BookmarkPanel? {
        if case .bookmarks(let panel)? = panel { return panel }
        return nil
    }
}
