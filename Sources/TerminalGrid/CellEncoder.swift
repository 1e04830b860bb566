/// Turns pixels into cells: the chafa adapter implements it. Pixels are cairo ARGB32 rows (BGRA in memory),
/// `stride` bytes apart.
public protocol CellEncoder: AnyObject, Sendable {
    func encode(pixels: [UInt8], width: Int, height: Int, stride: Int, columns: Int, rows: Int) -> CellGrid
}
