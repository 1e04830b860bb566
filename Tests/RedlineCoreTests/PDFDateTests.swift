import Foundation
import RedlineCore
import TestSupport
import Testing

@Suite struct PDFDateTests {
    @Test(arguments: [
        ("D:20220110151234+08'00'", "2022-01-10T15:12:34+08:00"),
        ("D:20230824225729Z00'00'", "2023-08-24T22:57:29+00:00"),
        ("D:20230824225729Z", "2023-08-24T22:57:29+00:00"),
        ("D:20230824225729-05'30'", "2023-08-24T22:57:29-05:30"),
        ("D:20230824225729-0530", "2023-08-24T22:57:29-05:30"),
        ("D:2023", "2023-01-01T00:00:00+00:00"),
        ("20230824", "2023-08-24T00:00:00+00:00"),
        // Seen in real files: three offset-minute digits, and a month of 00.
        ("D:20220110151234+00'240'", "2022-01-10T15:12:34+00:24"),
        ("D:01220011195504+00'208'", "0122-01-11T19:55:04+00:20"),
        // Leading blanks, stray digits of a part cut short, and parts out of range, clamped.
        ("  \tD:20220110151234+08'00'", "2022-01-10T15:12:34+08:00"),
        ("D:2022011015", "2022-01-10T15:00:00+00:00"),
        ("D:202201101", "2022-01-10T00:00:00+00:00"),
        ("D:20221340996199+25'99'", "2022-01-01T23:59:59+23:59"),
    ])
    func readsDatesLeniently(pdf: String, iso: String) throws {
        let date = try #require(PDFDate(pdf: pdf))
        #expect(date.iso8601 == iso)
    }

    @Test(arguments: ["", "D:", "D:20", "yesterday"])
    func refusesWhatHasNoYear(text: String) {
        #expect(PDFDate(pdf: text) == nil)
    }

    @Test func writesTheSpecificationsFormAndReadsItBack() throws {
        let date = PDFDate(year: 2026, month: 11, day: 22, hour: 9, minute: 5, second: 7, offsetMinutes: -90)
        #expect(date.pdfString == "D:20261122090507-01'30'")
        #expect(PDFDate(pdf: date.pdfString) == date)
        #expect(PDFDate(iso8601: date.iso8601) == date)
        #expect(PDFDate(iso8601: "2026-11-22T09:05:07Z")?.offsetMinutes == 0)
        #expect(PDFDate(iso8601: "2026-11-22 09:05") == nil)
        #expect(date.shortDisplay == "2026-11-22 09:05")
        #expect(PDFDate(year: 12, month: 3, day: 4, offsetMinutes: nil).pdfString == "D:00120304000000+00'00'")
    }

    /// Every date, odd ones too (years past 9999 or before 1, offsets of either sign), is written as `%04d-%02d…`
    /// writes it and read back from its PDF form.
    @Test func writesAnyDateAsTheFormatWouldAndReadsItBack() {
        var random = SplitMix64(seed: 8601)
        for _ in 0..<5_000 {
            let offset = random.int(-23 * 60...23 * 60)
            let date = PDFDate(year: random.int(-50...12_000), month: random.int(1...12), day: random.int(1...31),
                               hour: random.int(0...23), minute: random.int(0...59), second: random.int(0...59),
                               offsetMinutes: random.chance() ? offset : nil)
            let minutes = date.offsetMinutes ?? 0
            let expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02d%@%02d:%02d", date.year, date.month, date.day,
                                  date.hour, date.minute, date.second, minutes < 0 ? "-" : "+", abs(minutes) / 60, abs(minutes) % 60)
            #expect(date.iso8601 == expected)
            if (0...9999).contains(date.year) {
                var written = date
                written.offsetMinutes = minutes
                #expect(PDFDate(pdf: date.pdfString) == written)
            }
        }
    }

    @Test func ordersMomentsAcrossOffsets() throws {
        let tokyo = try #require(PDFDate(pdf: "D:20220110160000+09'00'"))
        let london = try #require(PDFDate(pdf: "D:20220110080000Z"))
        let newYork = try #require(PDFDate(pdf: "D:20220110050000-05'00'"))
        #expect(tokyo.instant < london.instant)
        #expect(london.instant < newYork.instant)
        #expect(newYork.instant - tokyo.instant == 3 * 3600)
    }
}
