/// Keys read from a terminal in raw mode.
public enum TerminalKey: Equatable, Sendable {
    case character(Character)
    case left, right, up, down, shiftLeft, shiftRight
    case pageUp, pageDown, home, end
    case escape
    case interrupt  // Ctrl-C (raw mode delivers it as a byte)

    /// Decodes the bytes of one read: plain characters, and the CSI / SS3 sequences xterm-like
    /// terminals send for arrows (with the shift modifier), PgUp/PgDn, Home/End. A lone ESC is Esc.
    public static func decode(_ bytes: [UInt8]) -> [TerminalKey] {
        var keys: [TerminalKey] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x03 {
                keys.append(.interrupt)
                index += 1
                continue
            }
            if byte == 0x1B {
                guard index + 1 < bytes.count, bytes[index + 1] == 0x5B || bytes[index + 1] == 0x4F else {
                    keys.append(.escape)
                    index += 1
                    continue
                }
                // ESC [ parameters final, or ESC O final.
                var end = index + 2
                while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                guard end < bytes.count else {
                    keys.append(.escape)
                    index += 1
                    continue
                }
                let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
                let shifted = parameters.hasSuffix(";2")
                switch (bytes[end], parameters) {
                case (0x44, _): keys.append(shifted ? .shiftLeft : .left)  // D
                case (0x43, _): keys.append(shifted ? .shiftRight : .right)  // C
                case (0x41, _): keys.append(.up)
                case (0x42, _): keys.append(.down)
                case (0x48, _), (0x7E, "1"), (0x7E, "7"): keys.append(.home)
                case (0x46, _), (0x7E, "4"), (0x7E, "8"): keys.append(.end)
                case (0x7E, "5"): keys.append(.pageUp)
                case (0x7E, "6"): keys.append(.pageDown)
                default: break
                }
                index = end + 1
                continue
            }
            // A UTF-8 character.
            let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            let scalarBytes = Array(bytes[index..<min(bytes.count, index + length)])
            if let character = String(decoding: scalarBytes, as: UTF8.self).first { keys.append(.character(character)) }
            index += length
        }
        return keys
    }
}
