import CQPDF
import Foundation

/// Pages of a repaired document whose content could not be read whole: a content stream the file names but no
/// longer holds (a file cut short), or one whose data ends or breaks before its end. qpdf's repair finds the pages
/// and says nothing of what they lost; a copy saved from it shows them blank or in part, so the user is told.
enum DamagedPages {
    /// Content decoded to look for damage, at most: past it, only missing streams are found.
    static let decodingBudget = 64 << 20

    static func find(in session: QPDFSession) -> [Int] {
        let count = Int(qpdf_get_num_pages(session.data))
        var damaged: [Int] = []
        var decoded = 0
        // A stream's data decoded whole and read as a drawing program; nil when it is broken or is no drawing program
        // (another object's bytes). Past the budget a stream is taken as whole, unread.
        func content(_ stream: qpdf_oh) -> ContentOperators? {
            guard decoded < decodingBudget else { return ContentOperators([]) }
            let before = qpdf_more_warnings(session.data) != 0
            guard let data = session.streamData(stream, level: qpdf_dl_generalized), before || qpdf_more_warnings(session.data) == 0 else { return nil }
            decoded += data.count
            let read = ContentOperators(data, checkingOperators: true)
            return read.unknownOperators > 0 || read.unterminated ? nil : read
        }
        for index in 0..<count {
            let broken = session.releasingHandles { () -> Bool in
                let page = qpdf_get_page_n(session.data, index)
                let contents = session.key(page, "/Contents")
                let streams = session.isArray(contents) ? session.arrayItems(contents) : [contents]
                if streams.contains(where: { isLost($0, in: session) }) { return true }
                let resources = session.inherited("/Resources", of: page)
                if isLost(resources, in: session) { return true }
                var fonts: Set<String> = [], drawn: Set<String> = []
                for stream in streams where session.isStream(stream) {
                    guard let read = content(stream) else { return true }
                    fonts.formUnion(read.fonts)
                    drawn.formUnion(read.drawn)
                }
                // What the content draws with: a font or image the file no longer holds leaves its words or picture out.
                for (category, names) in [("/Font", fonts), ("/XObject", drawn)] {
                    let named = session.key(resources, category)
                    // In a repaired file a name the content uses and the resources lack was lost with them (or
                    // replaced by another object the repair found under its number).
                    for name in names {
                        let resource = session.key(named, "/" + name)
                        if session.isNull(resource) { return true }
                        if category == "/Font", !session.isDictionary(resource) || session.name(session.key(resource, "/Type")) == "XRef" { return true }
                        // A form drawn by the page is content too.
                        if category == "/XObject", session.isStream(resource), session.name(session.key(resource, "/Subtype")) == "Form",
                           content(resource) == nil { return true }
                    }
                }
                return false
            }
            if broken { damaged.append(index) }
        }
        return damaged
    }

    /// A reference to an object the file does not hold: qpdf reads it as null, but it still names its object.
    private static func isLost(_ object: qpdf_oh, in session: QPDFSession) -> Bool {
        session.isNull(object) && session.objectID(object) != 0
    }

    /// What a repaired session lost, in the user's words, first among its repairs; nil for a whole document.
    static func note(in session: QPDFSession, warnings: [String]) -> (pages: [Int], note: String?) {
        guard !session.repairs.isEmpty || !warnings.isEmpty else { return ([], nil) }
        let damaged = find(in: session)
        guard !damaged.isEmpty else { return ([], nil) }
        let count = Int(qpdf_get_num_pages(session.data))
        return (damaged, "page\(damaged.count == 1 ? "" : "s") \(ranges(damaged)) (\(damaged.count) of \(count)) could not be read whole "
                    + "and show\(damaged.count == 1 ? "s" : "") blank or in part, here and in every copy saved")
    }

    /// "257–1000" or "3, 7, 9–12": the pages as ranges, counted from 1.
    static func ranges(_ pages: [Int]) -> String {
        var parts: [String] = []
        var index = 0
        while index < pages.count {
            var end = index
            while end + 1 < pages.count, pages[end + 1] == pages[end] + 1 { end += 1 }
            parts.append(end == index ? "\(pages[index] + 1)" : "\(pages[index] + 1)–\(pages[end] + 1)")
            index = end + 1
        }
        return parts.joined(separator: ", ")
    }
}
