/// A page's /Rotate, normalised. Real files write -90, 450 or 990; the PDF rule is a multiple of 90,
/// and readers treat anything else as 0.
public enum PageRotation: Int, Sendable, Hashable, Codable, CaseIterable {
    case none = 0
    case quarter = 90
    case half = 180
    case threeQuarters = 270

    public init(degrees: Int) {
        let normalised = ((degrees % 360) + 360) % 360
        self = PageRotation(rawValue: normalised) ?? .none
    }

    public var swapsAxes: Bool { self == .quarter || self == .threeQuarters }
}
