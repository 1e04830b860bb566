import Editor
import Foundation
import RedlineCore
import TerminalFrontEnd

// The interaction components from Swift, as docs/interactions.md shows them: the four customisations of
// the seed, and a callback that logs every smart zoom.
//
//     redline-interactions-example FILE.pdf [--log FILE]
//
// The log goes to FILE (standard error is the editor's screen while it runs).

let arguments = Array(CommandLine.arguments.dropFirst())
guard let path = arguments.first, !path.hasPrefix("-") else {
    FileHandle.standardError.write(Data("usage: redline-interactions-example FILE.pdf [--log FILE]\n".utf8))
    exit(2)
}
let logPath: String? = arguments.firstIndex(of: "--log").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }

do {
    let editor = try RedlineEditor(path: path)
    let interactions = editor.interactions

    // Ink is not selectable.
    interactions.selectAnnotation.addActivationCondition { context, _, _ in
        context.annotation?.kind != "ink"
    }
    // Nothing inside this rectangle of PDF user space is moved or resized.
    interactions.transformAnnotation.addActivationCondition { _, point, space in
        let pdfPoint = space.convert(point, to: .pdf)
        return !(pdfPoint.x >= 0 && pdfPoint.x <= 400 && pdfPoint.y >= 0 && pdfPoint.y <= 200)
    }
    // Text markup is not editable.
    interactions.editAnnotation.addActivationCondition { context, _, _ in
        context.annotation?.kind != "text"
    }
    // Links are followed on the first page only.
    interactions.openLinkAnnotation.addActivationCondition { context, _, _ in
        context.pageIndex == 0
    }
    // Every smart zoom is logged; a callback cannot stop it.
    let log = logPath.flatMap { file -> FileHandle? in
        FileManager.default.createFile(atPath: file, contents: nil)
        return FileHandle(forWritingAtPath: file)
    }
    interactions.smartZoom.addActivationCallback { context, point, space in
        let target = context.targetRect.map { "x \($0.minX) y \($0.minY) width \($0.width) height \($0.height)" } ?? "none"
        let line = "Will smart zoom to: \(target) on page \(context.pageIndex + 1), at \(point.x) \(point.y) in \(space.kind.rawValue)\n"
        log?.write(Data(line.utf8))
    }
    try editor.run()
} catch {
    FileHandle.standardError.write(Data("redline-interactions-example: \(error)\n".utf8))
    exit(1)
}
