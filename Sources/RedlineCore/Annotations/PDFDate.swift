import Foundation

/// A date as PDF files write it, `D:YYYYMMDDHHmmSS+HH'mm'`, keeping the writer's UTC offset so that
/// it can be shown and exported as it was meant.
public struct PDFDate: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Minutes east of UTC; nil when the file did not say (the specification then leaves it unknown, and it
    /// is treated as UTC).
    public var offsetMinutes: Int?

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, offsetMinutes: Int? = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.offsetMinutes = offsetMinutes
    }

    /// A moment as a given time zone shows it: how new annotations are stamped.
    public init(_ date: Date, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        self.init(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1, hour: parts.hour ?? 0,
                  minute: parts.minute ?? 0, second: parts.second ?? 0,
                  offsetMinutes: timeZone.secondsFromGMT(for: date) / 60)
    }

    /// Reads a PDF date leniently, the way widespread readers do: the `D:` prefix, every part after the
    /// year and the offset may be missing; out-of-range parts are clamped; `Z`, `Z00'00'` and offsets with
    /// stray digits (`+00'240'`) are accepted. Nil only when not even a year is there.
    public init?(pdf text: String) {
        // Bytes, not characters: a date is ASCII, and every annotation of a document has two of them.
        var copy = text
        guard let date = copy.withUTF8({ Self.parse(pdf: $0) }) else { return nil }
        self = date
    }

    private static func parse(pdf bytes: UnsafeBufferPointer<UInt8>) -> PDFDate? {
        var index = 0
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "D"), bytes[index + 1] == UInt8(ascii: ":") { index += 2 }
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[index + offset]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        guard let year = digits(4) else { return nil }
        let month = digits(2) ?? 1
        let day = digits(2) ?? 1
        let hour = digits(2) ?? 0
        let minute = digits(2) ?? 0
        let second = digits(2) ?? 0
        var offset: Int?
        if index < bytes.count, case let sign = bytes[index],
           sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") || sign == UInt8(ascii: "Z") {
            index += 1
            let hours = digits(2) ?? 0
            if index < bytes.count, bytes[index] == UInt8(ascii: "'") { index += 1 }
            let minutes = digits(2) ?? 0
            let magnitude = min(hours, 23) * 60 + min(minutes, 59)
            offset = sign == UInt8(ascii: "-") ? -magnitude : (sign == UInt8(ascii: "Z") ? 0 : magnitude)
        }
        return PDFDate(year: year, month: (1...12).contains(month) ? month : 1, day: (1...31).contains(day) ? day : 1,
                       hour: min(hour, 23), minute: min(minute, 59), second: min(second, 59), offsetMinutes: offset)
    }

    /// Reads the ISO 8601 form `YYYY-MM-DDTHH:MM:SS±HH:MM` (or `Z`) that Redline exports.
    public init?(iso8601 text: String) {
        let pattern = #"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(Z|[+-]\d{2}:\d{2})$"#
        guard let match = text.range(of: pattern, options: .regularExpression), match == text.startIndex..<text.endIndex else {
            return nil
        }
        let numbers = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard numbers.count >= 6 else { return nil }
        var offset = 0
        if numbers.count == 8 {
            let sign = text[text.index(text.startIndex, offsetBy: 19)]
            offset = (numbers[6] * 60 + numbers[7]) * (sign == "-" ? -1 : 1)
        }
        self.init(year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers[3], minute: numbers[4],
                  second: numbers[5], offsetMinutes: offset)
    }

    /// `D:YYYYMMDDHHmmSS+HH'mm'`, as the specification writes it.
    public var pdfString: String {
        "D:" + two(year, width: 4) + two(month) + two(day) + two(hour) + two(minute) + two(second) + offsetText(separator: "'") + "'"
    }

    /// `YYYY-MM-DDTHH:MM:SS+HH:MM`, in the writer's own offset.
    public var iso8601: String {
        // Written as bytes: a listing writes two for each of 100,000 annotations.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(26)
        let offset = offsetMinutes ?? 0
        DecimalText.append(year, width: 4, to: &bytes)
        for (separator, value) in [("-", month), ("-", day), ("T", hour), (":", minute), (":", second),
                                   (offset < 0 ? "-" : "+", abs(offset) / 60), (":", abs(offset) % 60)] as [(Unicode.Scalar, Int)] {
            bytes.append(UInt8(ascii: separator))
            DecimalText.append(value, width: 2, to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Short form for lists: `2022-01-10 15:12`, in the writer's own offset.
    public var shortDisplay: String {
        two(year, width: 4) + "-" + two(month) + "-" + two(day) + " " + two(hour) + ":" + two(minute)
    }

    private func two(_ value: Int, width: Int = 2) -> String { DecimalText.padded(value, width: width) }

    private func offsetText(separator: String) -> String {
        let offset = offsetMinutes ?? 0
        return (offset < 0 ? "-" : "+") + two(abs(offset) / 60) + separator + two(abs(offset) % 60)
    }

    /// Seconds since 1970 in UTC, for ordering dates written in different offsets. Sorting a long thread
    /// compares dates hundreds of thousands of times, so this is arithmetic, not a calendar lookup.
    public var instant: Double {
        let days = Self.daysSince1970(year: year, month: month, day: day)
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
        return Double(seconds - (offsetMinutes ?? 0) * 60)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (an out-of-range day runs on into
    /// the next month, as calendars do): the civil-from-days algorithm run backwards.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// Stored as its ISO 8601 text.
extension PDFDate: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = PDFDate(iso8601: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is not an ISO 8601 date")
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}
