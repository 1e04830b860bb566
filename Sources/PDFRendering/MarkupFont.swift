import CPoppler
import Foundation
import RedlineCore

/// The one face markup text is set in. DejaVu Sans covers Latin with accents, Greek and Cyrillic,
/// and cairo embeds the glyphs used into the saved file, so the text looks the same in every reader.
enum MarkupFont {
    static let family = "DejaVu Sans"
    /// Where Debian's fonts-dejavu-core puts the face. It is loaded from there by FreeType rather than looked up by
    /// name: fontconfig reads its whole configuration (some thirty files) before its first answer, 6 ms of every
    /// save and of the editor's start. Where the file is not, fontconfig finds the family as before.
    static let path = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// The face, loaded once and kept for the process (cairo's face holds FreeType's, which must outlive it). Light
    /// hinting, as fontconfig's configuration on Debian gives the face found by name (`10-hinting-slight.conf`),
    /// so text measures and draws as it did.
    nonisolated(unsafe) private static let face: OpaquePointer? = {
        guard FileManager.default.isReadableFile(atPath: path) else { return nil }
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        var loaded: FT_Face?
        guard FT_New_Face(library, path, 0, &loaded) == 0, let loaded else { return nil }
        let lightHinting = Int32(FT_RENDER_MODE_LIGHT.rawValue & 15) << 16
        let face = cairo_ft_font_face_create_for_ft_face(loaded, lightHinting)
        guard let face, cairo_font_face_status(face) == CAIRO_STATUS_SUCCESS else { return nil }
        return face
    }()

    static func select(on context: OpaquePointer, size: Double) {
        if let face {
            cairo_set_font_face(context, face)
        } else {
            cairo_select_font_face(context, family, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        }
        cairo_set_font_size(context, size)
    }
}

/// Measures markup text with cairo, in the same face and size it is drawn with.
public final class CairoTextMeasurer: TextMeasuring, @unchecked Sendable {
    private let lock = NSLock()
    private let surface: OpaquePointer
    private let context: OpaquePointer
    private var cache: [CacheKey: TextMetrics] = [:]
    private var coverage: [Character: Bool] = [:]

    private struct CacheKey: Hashable {
        let text: String
        let size: Double
    }

    public init() {
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
        context = cairo_create(surface)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    public func metrics(of text: String, fontSize: Double) -> TextMetrics {
        lock.lock()
        defer { lock.unlock() }
        let key = CacheKey(text: text, size: fontSize)
        if let known = cache[key] { return known }
        MarkupFont.select(on: context, size: fontSize)
        var font = cairo_font_extents_t()
        cairo_font_extents(context, &font)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        let metrics = TextMetrics(width: extents.x_advance, ascent: font.ascent, descent: font.descent)
        if cache.count > 4096 { cache.removeAll() }
        cache[key] = metrics
        return metrics
    }

    /// Asked of cairo's font glyph by glyph: a character it maps to glyph 0 (.notdef) has none. White space and
    /// controls draw nothing either way and are not counted.
    public func missingCharacters(in text: String) -> [Character] {
        lock.lock()
        defer { lock.unlock() }
        var missing: [Character] = []
        var said = Set<Character>()
        for character in text where !character.isWhitespace && !said.contains(character) {
            let drawn: Bool
            if let known = coverage[character] {
                drawn = known
            } else {
                drawn = hasGlyphs(String(character))
                if coverage.count > 4096 { coverage.removeAll() }
                coverage[character] = drawn
            }
            if !drawn {
                missing.append(character)
                said.insert(character)
            }
        }
        return missing
    }

    private func hasGlyphs(_ text: String) -> Bool {
        MarkupFont.select(on: context, size: 12)
        guard let font = cairo_get_scaled_font(context) else { return false }
        var glyphs: UnsafeMutablePointer<cairo_glyph_t>?
        var count: Int32 = 0
        let status = cairo_scaled_font_text_to_glyphs(font, 0, 0, text, -1, &glyphs, &count, nil, nil, nil)
        defer { cairo_glyph_free(glyphs) }
        guard status == CAIRO_STATUS_SUCCESS, let glyphs, count > 0 else { return false }
        return (0..<Int(count)).allSatisfy { glyphs[$0].index != 0 }
    }
}
