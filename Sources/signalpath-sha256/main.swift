import Crypto
import DescriptorMessage
import Glibc

// signalpath's SHA-256 helper. swift-crypto lives in this process, not in signalpath: linked into
// signalpath, its conformance records and relocated data slowed every command's start for the
// one option that hashes, scan --content-hash (docs/DECISIONS.md#sha256-helper).
// signalpath starts it on first use (SignalPathKit's `HashHelper`) with a Unix socket as standard
// input and output, and sends it requests:
// - in: a message of 8 bytes, the little-endian count of bytes to hash, carrying an open
//   descriptor of the file (SCM_RIGHTS);
// - out: the SHA-256 of the file's first `count` bytes (fewer if the file is shorter now) as 64
//   lowercase hexadecimal digits and a newline, or `error ERRNO` and a newline if reading failed.
// The helper reads the file itself, in 1 MiB pieces: sent the bytes through the socket, it was
// slower than hashing in signalpath had been (docs/DECISIONS.md#sha256-helper).
// End of input ends the helper (exit 0); a malformed request exits 65.

/// The answer to a request: the line to send back.
enum Answer {
    case digest(String)
    case readFailed(errno: Int32)

    var line: String {
        switch self {
        case .digest(let digest): return digest
        case .readFailed(let code): return "error \(code)"
        }
    }
}

/// The SHA-256 of the first `count` bytes of `descriptor` in hexadecimal, or the errno of a failed read.
func hash(_ descriptor: Int32, count: UInt64, into piece: UnsafeMutableRawPointer, capacity: Int) -> Answer {
    var hasher = SHA256()
    var offset: UInt64 = 0
    while offset < count {
        let got = pread(descriptor, piece, Int(min(UInt64(capacity), count - offset)), off_t(offset))
        if got < 0 {
            if errno == EINTR { continue }
            return .readFailed(errno: errno)
        }
        // A file that shrank while being read ends the hash where its bytes end.
        if got == 0 { break }
        hasher.update(bufferPointer: UnsafeRawBufferPointer(start: piece, count: got))
        offset += UInt64(got)
    }
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in hasher.finalize() {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 15)])
    }
    return .digest(String(decoding: text, as: UTF8.self))
}

/// Writes all of `line` to standard output; false if the socket is gone.
func answer(_ line: String) -> Bool {
    var bytes = Array(line.utf8)
    bytes.append(UInt8(ascii: "\n"))
    var done = 0
    while done < bytes.count {
        let wrote = bytes.withUnsafeBytes { write(1, $0.baseAddress! + done, $0.count - done) }
        if wrote > 0 {
            done += wrote
        } else if wrote < 0 && errno == EINTR {
            continue
        } else {
            return false
        }
    }
    return true
}

signal(SIGPIPE, SIG_IGN)
let capacity = 1 << 20
let piece = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 64)
while true {
    switch DescriptorMessage.receive(on: 0) {
    case .end:
        exit(0)
    case .malformed:
        exit(65)
    case .request(let count, let descriptor):
        let result = hash(descriptor, count: count, into: piece, capacity: capacity)
        close(descriptor)
        guard answer(result.line) else { exit(74) }
    }
}
