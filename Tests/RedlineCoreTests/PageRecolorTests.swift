import RedlineCore
import Testing

/// The dark page: lightness turned over, hue and saturation kept, greys laid between the configured colours.
@Suite struct PageRecolorTests {
    @Test func paperGoesDarkTextLightAndColoursKeepTheirHue() {
        let recolor = PageRecolor(dark: 0x000000, light: 0xFFFFFF)
        #expect(recolor.apply(red: 255, green: 255, blue: 255) == (0, 0, 0))
        #expect(recolor.apply(red: 0, green: 0, blue: 0) == (255, 255, 255))
        #expect(recolor.apply(red: 255, green: 0, blue: 0) == (255, 0, 0), "lightness ½ is its own turn")
        #expect(recolor.apply(red: 255, green: 255, blue: 0) == (255, 255, 0), "a yellow highlight stays yellow")
        #expect(recolor.apply(red: 0, green: 0, blue: 128) == (127, 127, 255), "dark blue ink turns light blue")
        // Every colour: turning twice gives it back (to rounding), and saturation (max − min) is kept.
        for red in stride(from: 0, through: 255, by: 15) {
            for green in stride(from: 0, through: 255, by: 15) {
                for blue in stride(from: 0, through: 255, by: 15) {
                    let once = recolor.apply(red: UInt8(red), green: UInt8(green), blue: UInt8(blue))
                    let twice = recolor.apply(red: once.red, green: once.green, blue: once.blue)
                    #expect(abs(Int(twice.red) - red) <= 1 && abs(Int(twice.green) - green) <= 1 && abs(Int(twice.blue) - blue) <= 1)
                    let spread = max(red, green, blue) - min(red, green, blue)
                    let turnedSpread = Int(max(once.red, once.green, once.blue)) - Int(min(once.red, once.green, once.blue))
                    #expect(abs(turnedSpread - spread) <= 1)
                }
            }
        }
    }

    @Test func greysLieBetweenTheConfiguredColoursAndARasterIsTurnedPixelByPixel() {
        let recolor = PageRecolor.standard
        #expect(recolor.apply(red: 255, green: 255, blue: 255) == (0x1C, 0x1C, 0x1E))
        #expect(recolor.apply(red: 0, green: 0, blue: 0) == (0xE8, 0xE6, 0xE3))
        var raster = PageRaster(width: 3, height: 2, filledWith: 0xFFFFFF)
        raster.pixels[4] = 0; raster.pixels[5] = 0; raster.pixels[6] = 0
        recolor.apply(to: &raster)
        #expect(Array(raster.pixels[0..<4]) == [0x1E, 0x1C, 0x1C, 255], "BGRA, alpha kept")
        #expect(Array(raster.pixels[4..<8]) == [0xE3, 0xE6, 0xE8, 255])
        #expect(raster.pixels.count == 24)
    }
}
