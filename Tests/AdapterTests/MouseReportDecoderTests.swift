import TerminalGrid
import NcursesTerminal
import Testing

/// Mouse reports as terminals send them, decoded without ncurses' help: SGR (any column) and X10.
@Suite struct MouseReportDecoderTests {
    @Test func sgrReportsCarryColumnsBeyondX10sLimit() {
        var decoder = MouseReportDecoder()
        #expect(decoder.decodeSGR("0;300;12M") == MouseEvent(.press, column: 299, row: 11))
        #expect(decoder.decodeSGR("32;301;13M") == MouseEvent(.drag, column: 300, row: 12))
        #expect(decoder.decodeSGR("0;302;13m") == MouseEvent(.release, column: 301, row: 12))
        // Motion with no button held is not a drag.
        #expect(decoder.decodeSGR("32;303;13M") == nil)
        #expect(decoder.decodeSGR("64;10;5M") == MouseEvent(.scrollUp, column: 9, row: 4))
        #expect(decoder.decodeSGR("65;10;5M") == MouseEvent(.scrollDown, column: 9, row: 4))
        // Shift or Control held: still a press.
        #expect(decoder.decodeSGR("4;1;1M") == MouseEvent(.press, column: 0, row: 0))
        // The right button is not used.
        #expect(decoder.decodeSGR("2;1;1M") == nil)
    }

    @Test(arguments: ["", "0;1;1", "0;1M", "a;1;1M", "0;0;1M", "0;1;-4M", "99999999999999999999;1;1M", "0;1;1;1M"])
    func brokenSGRReportsAreDropped(_ body: String) {
        var decoder = MouseReportDecoder()
        #expect(decoder.decodeSGR(body) == nil)
    }

    @Test func x10ReportsDecodeTheirOffsetBytes() {
        var decoder = MouseReportDecoder()
        #expect(decoder.decodeX10([32, 33 + 10, 33 + 4]) == MouseEvent(.press, column: 10, row: 4))
        #expect(decoder.decodeX10([32 + 32, 33 + 11, 33 + 4]) == MouseEvent(.drag, column: 11, row: 4))
        #expect(decoder.decodeX10([32 + 3, 33 + 12, 33 + 4]) == MouseEvent(.release, column: 12, row: 4))
        #expect(decoder.decodeX10([32 + 65, 40, 40]) == MouseEvent(.scrollDown, column: 7, row: 7))
        #expect(decoder.decodeX10([32, 40]) == nil)
    }
}
