/// What a terminal said about itself when asked before the editor starts: the replies to the probe's queries,
/// read from the bytes the terminal sent back. Pure: the probe (NcursesTerminal) does the asking and reading.
public struct TerminalReplies: Sendable, Equatable {
    /// The primary device attributes (DA1), the last reply the probe waits for: nil when none came.
    public var primaryAttributes: [Int]?
    /// The kitty graphics protocol's answer to a direct-transfer query: true on OK, false on an error.
    public var kittyGraphics: Bool?
    /// The answer to a shared-memory transfer query: the terminal could read an image from shared memory.
    public var kittySharedMemory: Bool?
    /// What the terminal said instead of OK (Ghostty's ENOENT for shared memory, say).
    public var kittyErrors: [String] = []
    /// One cell in pixels (CSI 16 t), and the text area (CSI 14 t).
    public var cellPixels: PixelSize?
    public var textAreaPixels: PixelSize?
    /// XTSMGRAPHICS's largest sixel image (`CSI ? 2 ; 0 ; W ; H S`): xterm refuses a larger one and shows nothing.
    public var largestSixel: PixelSize?
    /// DECRQM on mode 1016, SGR mouse reports in pixels: true when the terminal knows the mode.
    public var sgrPixelMouse: Bool?
    /// XTVERSION: the terminal's name and version as it gives them ("kitty(0.26.5)", "XTerm(379)").
    public var version: String?
    /// Bytes that were no reply (keys typed while the probe waited): dropped, never read as keys.
    public var strayBytes = 0

    public struct PixelSize: Sendable, Equatable {
        public var width: Int
        public var height: Int

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// The kitty query ids the probe uses: the direct transfer and the shared-memory one.
    public static let directQueryID = 31
    public static let sharedMemoryQueryID = 32

    /// Sixel, from DA1's attribute 4.
    public var sixel: Bool { primaryAttributes?.contains(4) ?? false }

    /// Every XTVERSION answer, in the order they came: inside tmux, tmux's own and the terminal's around it.
    public var versions: [String] = []
    /// How many DA1 answers end the wait: two inside tmux with passthrough (tmux's own, and the terminal's around
    /// it, which comes after that terminal's answers to the wrapped questions).
    public var awaitedAttributes = 1
    private var attributesSeen = 0

    /// Whether the terminal has answered the last query, so the probe can stop waiting.
    public var isComplete: Bool { attributesSeen >= awaitedAttributes }

    private var pending: [UInt8] = []

    public init() {}

    /// Reads more of what the terminal sent. A reply cut between two reads is completed by the next.
    public mutating func absorb(_ bytes: some Sequence<UInt8>) {
        pending.append(contentsOf: bytes)
        var index = 0
        while index < pending.count {
            guard pending[index] == 0x1B else {
                strayBytes += 1
                index += 1
                continue
            }
            switch reply(at: index) {
            case .complete(let end): index = end
            case .incomplete:
                pending.removeFirst(index)
                return
            case .notAReply:
                strayBytes += 1
                index += 1
            }
        }
        pending.removeAll()
    }

    private enum Parsed { case complete(Int), incomplete, notAReply }

    private mutating func reply(at start: Int) -> Parsed {
        guard start + 1 < pending.count else { return .incomplete }
        switch pending[start + 1] {
        case UInt8(ascii: "_"), UInt8(ascii: "P"):
            // APC (kitty graphics) and DCS (XTVERSION) end with ST: ESC backslash.
            guard let end = stringTerminator(after: start + 2) else {
                return pending.count - start > Self.longestReply ? .notAReply : .incomplete
            }
            let body = String(decoding: pending[(start + 2)..<end], as: UTF8.self)
            if pending[start + 1] == UInt8(ascii: "_") { readGraphics(body) } else { readDeviceControl(body) }
            return .complete(end + 2)
        case UInt8(ascii: "["):
            // CSI: parameters and intermediates, then a final byte from @ to ~.
            var end = start + 2
            while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
            guard end < pending.count else { return pending.count - start > Self.longestReply ? .notAReply : .incomplete }
            readControlSequence(String(decoding: pending[(start + 2)..<end], as: UTF8.self), final: pending[end])
            return .complete(end + 1)
        default:
            return .notAReply
        }
    }

    /// A reply longer than this is not one: the probe stops looking for its end.
    static let longestReply = 4096

    private func stringTerminator(after start: Int) -> Int? {
        var index = start
        while index + 1 < pending.count {
            if pending[index] == 0x1B, pending[index + 1] == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return nil
    }

    /// `G i=31;OK`, or `G i=32;ENOENT:…`.
    private mutating func readGraphics(_ body: String) {
        guard let reply = KittyGraphicsReply(body: body) else { return }
        if !reply.isOK { kittyErrors.append(String(reply.message.prefix(80))) }
        if reply.imageID == Self.directQueryID { kittyGraphics = reply.isOK }
        if reply.imageID == Self.sharedMemoryQueryID { kittySharedMemory = reply.isOK }
    }

    /// `>|kitty(0.26.5)`.
    private mutating func readDeviceControl(_ body: String) {
        guard body.hasPrefix(">|") else { return }
        let named = String(body.dropFirst(2).prefix(80))
        if version == nil { version = named }
        versions.append(named)
    }

    private mutating func readControlSequence(_ parameters: String, final: UInt8) {
        switch final {
        case UInt8(ascii: "c") where parameters.hasPrefix("?"):
            attributesSeen += 1
            if primaryAttributes == nil { primaryAttributes = parameters.dropFirst().split(separator: ";").compactMap { Int($0) } }
        case UInt8(ascii: "t"):
            let numbers = parameters.split(separator: ";").compactMap { Int($0) }
            guard numbers.count == 3, numbers[1] > 0, numbers[2] > 0 else { return }
            let size = PixelSize(width: numbers[2], height: numbers[1])
            if numbers[0] == 6 { cellPixels = size }
            if numbers[0] == 4 { textAreaPixels = size }
        case UInt8(ascii: "S") where parameters.hasPrefix("?2;0;"):
            let numbers = parameters.dropFirst(5).split(separator: ";").compactMap { Int($0) }
            if numbers.count == 2, numbers[0] > 0, numbers[1] > 0 { largestSixel = PixelSize(width: numbers[0], height: numbers[1]) }
        case UInt8(ascii: "y") where parameters.hasPrefix("?1016;"):
            // 1 set, 2 reset: known; 0 not recognised; 3 and 4 permanently set or reset.
            let value = Int(parameters.dropFirst(6).prefix { $0.isNumber }) ?? 0
            sgrPixelMouse = value == 1 || value == 2 || value == 3
        default:
            break
        }
    }
}
