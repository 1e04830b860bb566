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

func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("redline-interactions-example: \(problem)\nusage: redline-interactions-example FILE.pdf [--log FILE]\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var logPath: String?
if let flag = arguments.firstIndex(of: "--log") {
    guard arguments.indices.contains(flag + 1) else { usage("--log needs a file") }
    logPath = arguments[flag + 1]
    arguments.removeSubrange(flag...(flag + 1))
}
guard arguments.count == 1, let path = arguments.first, !path.hasPrefix("-") else {
    usage(arguments.first { $0.hasPrefix("-") }.map { "unknown option \($0)" } ?? "give one PDF")
}

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
    // Every smart zoom is logged, appended to the log as it happens; a callback cannot stop it.
    interactions.smartZoom.addActivationCallback { [logPath] context, point, space in
        guard let logPath else { return }
        let target = context.targetRect.map { "x \($0.minX) y \($0.minY) width \($0.width) height \($0.height)" } ?? "none"
        let line = "Will smart zoom to: \(target) on page \(context.pageIndex + 1), at \(point.x) \(point.y) in \(space.kind.rawValue)\n"
        let descriptor = open(logPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        _ = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
    }
    try editor.run()
} catch {
    FileHandle.standardError.write(Data("redline-interactions-example: \(error)\n".utf8))
    exit(1)
}
