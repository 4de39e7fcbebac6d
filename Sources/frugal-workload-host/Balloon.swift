import Foundation
import FrugalCore

/// `frugal-workload-host --balloon BYTES`: the memory hog the harness starts in a workload's
/// cgroup for a `balloon` step. It touches every page of `bytes` of anonymous memory, closes
/// its event pipe to say it is full, and holds the memory until the harness closes the control
/// pipe or kills it.
enum Balloon {
    static func run(bytes: Int) -> Never {
        let region = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let region, region != MAP_FAILED else {
            FileHandle.standardError.write(Data("frugal-balloon: mmap \(bytes): \(String(cString: strerror(errno)))\n".utf8))
            exit(3)
        }
        memset(region, 0x5a, bytes)
        close(FrugalProtocol.eventFD)
        var byte: UInt8 = 0
        while read(FrugalProtocol.controlFD, &byte, 1) != 0 {
            if errno == EINTR { continue }
        }
        exit(0)
    }
}
