import Foundation
import RedlineCore

/// Redline's temporary files: named so that Redline knows its own, and removed once the process that
/// made them is gone. A save killed halfway (kill -9, a power cut) leaves one behind; the next write into
/// the same folder cleans it up.
///
///     .NAME.redline-PID-START-PLACE-RANDOM.tmp
///
/// PID and START (the process's start time in clock ticks since boot) say which process made it: a process
/// that has ended, or a new one that reuses the number, is not the maker. PLACE says where process numbers
/// mean that: this boot of this machine, in this PID namespace. A file made elsewhere (another container,
/// another machine on a shared folder) cannot be judged by its process number and is removed only once it
/// is a day old. NAME is the destination's name, cut so the whole stays within the 255 bytes a file name
/// may have.
public enum TemporaryFiles {
    public static func name(for fileName: String) -> String {
        let suffix = ".redline-\(getpid())-\(ProcessStart.ticks(of: getpid()) ?? 0)-\(place)-"
            + String(format: "%08x", UInt32.random(in: .min ... .max)) + ".tmp"
        return "." + prefix(of: fileName, maxBytes: 255 - 1 - suffix.utf8.count) + suffix
    }

    /// This boot of this machine in this PID namespace, as eight hex digits.
    public static let place: String = {
        let boot = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)) ?? ""
        var buffer = [CChar](repeating: 0, count: 256)
        let namespace = readlink("/proc/self/ns/pid", &buffer, buffer.count - 1) > 0 ? String(cString: buffer) : ""
        return String(StableHash.hex(boot + namespace + ProcessInfo.processInfo.hostName).prefix(8))
    }()

    static let oldestForeign: Double = 24 * 60 * 60

    /// Removes this user's leftovers in `folder`: temporary files of Redline's whose maker has ended.
    /// Best effort: a folder that cannot be listed is left alone.
    static func removeStale(in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") && name.contains(".redline-") {
            let path = folder + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(),
                  isStale(name, modified: Double(status.st_mtim.tv_sec)) else { continue }
            unlink(path)
        }
    }

    static func isStale(_ name: String, modified: Double, now: Double = Date().timeIntervalSince1970) -> Bool {
        let fields = name.split(separator: "-").suffix(4).map(String.init)
        // This version's form: PID, START, PLACE, RANDOM.tmp.
        if fields.count == 4, let pid = Int32(fields[0].split(separator: ".").last ?? ""), let start = UInt64(fields[1]),
           fields[2].count == 8, fields[3].hasSuffix(".tmp"), fields[3].count == 12 {
            guard fields[2] == place else { return now - modified > oldestForeign }
            return ProcessStart.ticks(of: pid) != start
        }
        // Earlier versions wrote .NAME.redline-PID-RANDOM.tmp: the maker is gone if no process has the number,
        // or if the one that has it started after the file was last written.
        let older = name.split(separator: "-").suffix(2).map(String.init)
        guard older.count == 2, let pid = Int32(older[0].split(separator: ".").last ?? "") else { return false }
        guard let started = ProcessStart.seconds(of: pid) else { return true }
        return started > modified + 1
    }

    /// At most `maxBytes` of UTF-8, never cutting a character in two.
    static func prefix(of text: String, maxBytes: Int) -> String {
        var result = ""
        var bytes = 0
        for character in text {
            let size = String(character).utf8.count
            guard bytes + size <= maxBytes else { break }
            result.append(character)
            bytes += size
        }
        return result
    }
}

/// When a process started, from /proc: in clock ticks since boot (exact, for telling a process from a later
/// one with the same number) or in seconds since 1970.
enum ProcessStart {
    static func ticks(of pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        // After the command name in parentheses: state is field 3, start time field 22.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }

    static func seconds(of pid: Int32) -> Double? {
        guard let ticks = ticks(of: pid), let boot = bootTime else { return nil }
        return boot + Double(ticks) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private static let bootTime: Double? = {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix("btime ") }.flatMap { Double($0.dropFirst(6)) }
    }()
}
