import Foundation
import RedlineCore
import RedlineKit
import TestSupport
import Testing

/// Where each document was left, kept between sessions under the state folder.
@Suite struct ReadingPlacesTests {
    func places(_ folder: TemporaryFolder) -> ReadingPlaces { ReadingPlaces(environment: ["XDG_STATE_HOME": folder.file("state")]) }

    @Test func aPlaceIsKeptByTheDocumentsIDAndReadBackAsWritten() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("state"), withIntermediateDirectories: true)
        let places = places(folder)
        let place = ReadingPlace(pageIndex: 41, zoom: 1.25, fitsWidth: true, showsText: false, scrollX: 3.5, scrollY: 700.25,
                                 marks: ["a": .init(pageIndex: 2, scrollX: 0, scrollY: 12), "Z": .init(pageIndex: 99, scrollX: 1, scrollY: 2)])
        try places.remember(place, permanentID: "c0ffee", path: "/docs/a.pdf")
        #expect(places.place(permanentID: "c0ffee", path: "/docs/a.pdf") == place)
        #expect(places.place(permanentID: "c0ffee", path: "/elsewhere/copy.pdf") == place, "a copy keeps the /ID, and the place")
        #expect(places.place(permanentID: "beef", path: "/docs/a.pdf") == nil)
        #expect(places.place(permanentID: nil, path: "/docs/a.pdf") == nil)
        try places.remember(ReadingPlace(pageIndex: 3), permanentID: nil, path: "/docs/b.pdf")
        #expect(places.place(permanentID: nil, path: "/docs/b.pdf")?.pageIndex == 3, "without an /ID, by the path")
        let file = places.file(permanentID: "c0ffee", path: "/x")
        var status = stat()
        #expect(stat(file, &status) == 0 && status.st_mode & 0o777 == 0o600, "readable by its owner alone")
    }

    @Test func aPlaceFileThatIsNotOneIsIgnoredAndAFolderOthersCanWriteInIsNotUsed() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("state"), withIntermediateDirectories: true)
        let places = places(folder)
        try places.remember(ReadingPlace(pageIndex: 1), permanentID: "id", path: "/p")
        let file = places.file(permanentID: "id", path: "/p")
        for bytes in [Data("{".utf8), Data("[]".utf8), Data(#"{"pageIndex":"one"}"#.utf8),
                      Data(repeating: 0x20, count: 70_000) + Data(#"{"pageIndex":1,"zoom":1,"fitsWidth":false,"showsText":false,"scrollX":0,"scrollY":0,"marks":{}}"#.utf8)] {
            try bytes.write(to: URL(fileURLWithPath: file))
            #expect(places.place(permanentID: "id", path: "/p") == nil)
        }
        // Others may write in the folder: a place there could have been planted.
        try places.remember(ReadingPlace(pageIndex: 1), permanentID: "id", path: "/p")
        chmod(folder.file("state/redline"), 0o777)
        #expect(places.place(permanentID: "id", path: "/p") == nil)
        try places.remember(ReadingPlace(pageIndex: 5), permanentID: "id", path: "/p")
        chmod(folder.file("state/redline"), 0o700)
        #expect(places.place(permanentID: "id", path: "/p")?.pageIndex == 1, "nothing was written there either")
    }

    @Test func theThousandDocumentsOpenedLastAreKept() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("state"), withIntermediateDirectories: true)
        let places = places(folder)
        for number in 0..<1003 {
            try places.remember(ReadingPlace(pageIndex: number), permanentID: "doc-\(number)", path: "/p")
            // File times tell which was written last; a second apart for the first ones, so none tie with the newest.
            if number < 3 {
                let file = places.file(permanentID: "doc-\(number)", path: "/p")
                var times = [timespec(tv_sec: 1_000_000 + number, tv_nsec: 0), timespec(tv_sec: 1_000_000 + number, tv_nsec: 0)]
                utimensat(AT_FDCWD, file, &times, 0)
            }
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: places.folder)
        #expect(kept.count == 1000)
        #expect((0..<3).allSatisfy { places.place(permanentID: "doc-\($0)", path: "/p") == nil })
        #expect(places.place(permanentID: "doc-1002", path: "/p")?.pageIndex == 1002)
    }
}
