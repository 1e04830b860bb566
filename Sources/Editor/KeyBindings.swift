/// The keys, as the `?` overlay lists them. docs/keys.md says the same at more length.
public enum KeyBindings {
    public static let sections: [(title: String, keys: [(keys: String, action: String)])] = [
        ("Pages", [
            ("j  k", "scroll down / up, on to the next page at the edge"),
            ("h  l", "scroll left / right (zoomed)"),
            ("Space  Backspace", "a screen down / up, then the next page"),
            ("PgDn  PgUp", "next / previous page (keeps the column)"),
            ("g  G", "first / last page"),
            (":N Enter", "go to page N"),
            ("z  Z  0", "zoom in / out / fit page"),
        ]),
        ("Markup", [
            ("arrows", "scroll (zoomed) or move the cursor; nudge the selection 1 pt"),
            ("Shift+arrows  H J K L", "move the cursor 8 cells; nudge the selection 10 pt"),
            ("t", "type text at the cursor (Enter commits, Esc cancels)"),
            ("Tab  Shift+Tab", "select next / previous markup"),
            ("Enter", "edit the selected text"),
            ("Esc", "deselect"),
            ("x  Delete", "delete the selection"),
            ("+  -", "font size up / down (8 to 48 pt)"),
            ("c", "colour: blue, black, red, purple (config.toml: text_colors)"),
            ("u  Ctrl-R", "undo / redo"),
            ("mouse", "click selects, drag moves"),
        ]),
        ("Ink (i)", [
            ("i", "ink mode, pen at the cursor; Esc leaves"),
            ("Space", "lower / lift the pen"),
            ("arrows  Shift+arrows", "move the pen 1 / 10 pt, drawing while down"),
            ("Enter", "end the stroke"),
            ("p  h  e", "pen / highlighter / eraser (whole strokes)"),
            ("+  -  c", "width / colour (highlighter: yellow, green, blue, pink)"),
            ("mouse", "press, drag, release draws a stroke"),
        ]),
        ("Annotations (a)", [
            ("a", "open / close the annotation list beside the page"),
            ("j  k  g  G", "move through the list (turns to the page)"),
            ("A  w", "this page or all pages / show links and widgets"),
            ("Enter", "the whole thread, full texts"),
            ("r  e", "reply / edit your own reply (Enter sends)"),
            ("s  m", "set review state / toggle Marked"),
            ("x", "delete with its replies (replies: your own)"),
        ]),
        ("Bookmarks (B)", [
            ("b", "bookmark this page / remove its bookmark"),
            ("B", "the bookmarks panel: Enter goes there"),
            ("R  d", "rename / delete (in the panel)"),
            ("o  K  J", "own order or page order / move (in the panel)"),
        ]),
        ("Files", [
            (":w", "save NAME-marked.pdf beside the original"),
            (":w PATH", "save elsewhere (asks before overwriting)"),
            (":w!", "save over the opened file"),
            (":wq", "save and quit"),
            ("q  :q!", "quit (asks if unsaved) / quit without saving"),
            ("?", "this help; j/k scroll, other keys close it"),
        ]),
    ]
}
