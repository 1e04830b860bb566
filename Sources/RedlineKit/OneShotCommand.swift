import PDFAssembly

/// A command line run that ends once it has written its document: what it wrote from is left to the process's end to
/// give back (`WrittenSessions`), never the editor's, which saves again and again.
public enum OneShotCommand {
    public static func endsAfterWriting() { WrittenSessions.leftToProcessEnd() }
}
