import Glibc

/// The one message `signalpath` sends its SHA-256 helper and the helper receives (SignalPathKit's
/// `HashHelper`, the helper's main.swift): 8 bytes, a little-endian byte count, with one open
/// descriptor attached (`SCM_RIGHTS`). Both ends are here, so that they build and read it alike.
public enum DescriptorMessage {
    /// What `receive` found.
    public enum Received {
        case request(count: UInt64, descriptor: Int32)
        /// The other end closed the socket.
        case end
        /// A short message, or one without a descriptor.
        case malformed
    }

    /// Sends `count` with `descriptor` attached on `socket`; false if the message did not go
    /// (the other end has gone: MSG_NOSIGNAL makes that an error here, not a SIGPIPE).
    public static func send(count: UInt64, descriptor: Int32, on socket: Int32) -> Bool {
        var count = count.littleEndian
        return withControl { control in
            var header = cmsghdr()
            header.cmsg_len = MemoryLayout<cmsghdr>.size + 4
            header.cmsg_level = SOL_SOCKET
            header.cmsg_type = Int32(SCM_RIGHTS)
            control.storeBytes(of: header, as: cmsghdr.self)
            control.storeBytes(of: descriptor, toByteOffset: MemoryLayout<cmsghdr>.size, as: Int32.self)
            return exchange(count: &count, control: control) { sendmsg(socket, $0, Int32(MSG_NOSIGNAL)) } == 8
        }
    }

    /// The next message on `socket`; its descriptor is close-on-exec.
    public static func receive(on socket: Int32) -> Received {
        var count: UInt64 = 0
        return withControl { control in
            let received = exchange(count: &count, control: control) { recvmsg(socket, $0, Int32(MSG_CMSG_CLOEXEC)) }
            if received == 0 { return .end }
            let header = control.load(as: cmsghdr.self)
            guard received == 8, header.cmsg_level == SOL_SOCKET, header.cmsg_type == Int32(SCM_RIGHTS),
                header.cmsg_len >= MemoryLayout<cmsghdr>.size + 4
            else { return .malformed }
            return .request(count: UInt64(littleEndian: count), descriptor: control.load(fromByteOffset: MemoryLayout<cmsghdr>.size, as: Int32.self))
        }
    }

    /// A zeroed control buffer for one descriptor: CMSG_SPACE(sizeof(int)), the header and an int
    /// padded to 8 bytes.
    private static func withControl<Result>(_ body: (UnsafeMutableRawPointer) -> Result) -> Result {
        let size = MemoryLayout<cmsghdr>.size + 8
        let control = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { control.deallocate() }
        control.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        return body(control)
    }

    /// Calls `transfer` (a `sendmsg` or `recvmsg`) with a message whose one part is `count`'s 8
    /// bytes and whose control buffer is `control`, again while it fails with EINTR.
    private static func exchange(
        count: inout UInt64, control: UnsafeMutableRawPointer, _ transfer: (UnsafeMutablePointer<msghdr>) -> Int
    ) -> Int {
        var result = 0
        repeat {
            result = withUnsafeMutableBytes(of: &count) { countBytes in
                var part = iovec(iov_base: countBytes.baseAddress, iov_len: 8)
                return withUnsafeMutablePointer(to: &part) { part in
                    var message = msghdr()
                    message.msg_iov = part
                    message.msg_iovlen = 1
                    message.msg_control = control
                    message.msg_controllen = MemoryLayout<cmsghdr>.size + 8
                    return transfer(&message)
                }
            }
        } while result < 0 && errno == EINTR
        return result
    }
}
