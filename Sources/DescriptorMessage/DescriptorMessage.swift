import Glibc

/// The one message `signalpath` sends its SHA-256 helper and the helper receives (SignalPathKit's
/// `HashHelper`, the helper's main.swift): 8 bytes, a little-endian byte count, with one open
/// descriptor attached (`SCM_RIGHTS`). A module of its own so that both ends build it alike.
public enum DescriptorMessage {
    /// CMSG_SPACE(sizeof(int)): the control header and an int, padded to 8 bytes.
    public static let controlSize = MemoryLayout<cmsghdr>.size + 8

    /// Calls `transfer` (a `sendmsg` or `recvmsg`) with a message whose one part is `count`'s 8
    /// bytes and whose control buffer is `control` (`controlSize` bytes), again while it fails
    /// with EINTR; returns its result.
    public static func exchange(
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
                    message.msg_controllen = controlSize
                    return transfer(&message)
                }
            }
        } while result < 0 && errno == EINTR
        return result
    }
}
