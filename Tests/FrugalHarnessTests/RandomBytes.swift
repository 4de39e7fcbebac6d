import Foundation
import XCTest

/// Random bytes for a fixture's body, read from the kernel in one go. Drawing them one at a time
/// (`UInt8.random(in:using:)`, a `getrandom` call each in a debug build) took about 15 s for
/// 12 MiB, most of `HeldBodyDownloadTests`' time in the main test lane, for bytes whose only
/// job is to be unlike any other file's.
enum RandomBytes {
    static func data(count: Int) throws -> Data {
        let urandom = try XCTUnwrap(FileHandle(forReadingAtPath: "/dev/urandom"), "/dev/urandom cannot be opened")
        defer { try? urandom.close() }
        var data = Data()
        while data.count < count {
            guard let chunk = try urandom.read(upToCount: count - data.count), !chunk.isEmpty else {
                throw XCTSkip("/dev/urandom ended after \(data.count) of \(count) bytes")
            }
            data.append(chunk)
        }
        return data
    }
}
