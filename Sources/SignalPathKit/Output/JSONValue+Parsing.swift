/// JSON text read back into a `JSONValue` (RFC 8259), for the documents other programs hand us:
/// swift-argument-parser's description of a command's options, which the messages about a
/// mistyped option are made from. Members keep their order; a number without a fraction or
/// exponent that fits in 64 bits is an integer.
extension JSONValue {
    /// Nil when `text` is not one JSON value (with only whitespace around it).
    public init?(parsing text: String) {
        var reader = Reader(bytes: Array(text.utf8))
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipWhitespace()
        guard reader.position == reader.bytes.count else { return nil }
        self = value
    }

    /// The value of `key` in an object; nil for a missing key or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    public var arrayValue: [JSONValue]? {
        guard case .array(let values) = self else { return nil }
        return values
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0
        /// Deeper nesting is refused rather than recursed into (no stack overflow on hostile text).
        static let maximumDepth = 512

        mutating func skipWhitespace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        mutating func value(depth: Int) -> JSONValue? {
            skipWhitespace()
            guard position < bytes.count, depth < Self.maximumDepth else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return number()
            }
        }

        mutating func literal(_ word: String, _ value: JSONValue) -> JSONValue? {
            let word = Array(word.utf8)
            guard bytes.count - position >= word.count, Array(bytes[position..<position + word.count]) == word else { return nil }
            position += word.count
            return value
        }

        mutating func object(depth: Int) -> JSONValue? {
            position += 1
            var members: [Member] = []
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")), let value = value(depth: depth + 1) else { return nil }
                members.append(Member(key, value))
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "}")) ? .object(members) : nil
        }

        mutating func array(depth: Int) -> JSONValue? {
            position += 1
            var values: [JSONValue] = []
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return .array(values) }
            repeat {
                guard let value = value(depth: depth + 1) else { return nil }
                values.append(value)
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "]")) ? .array(values) : nil
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// A string from its opening quote: escapes decoded, a surrogate pair joined into one
        /// scalar; unescaped control characters and lone surrogates are errors.
        mutating func string() -> String? {
            position += 1
            var scalars = String.UnicodeScalarView()
            var start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    // The run of plain bytes since the last escape, as UTF-8.
                    guard let run = String(validating: bytes[start..<position], as: UTF8.self) else { return nil }
                    scalars.append(contentsOf: run.unicodeScalars)
                    position += 1
                    if byte == UInt8(ascii: "\"") { return String(scalars) }
                    guard let scalar = escape() else { return nil }
                    scalars.append(scalar)
                    start = position
                } else if byte < 0x20 {
                    return nil
                } else {
                    position += 1
                }
            }
            return nil
        }

        /// The character after a backslash (and its four hex digits, and a low surrogate's).
        mutating func escape() -> Unicode.Scalar? {
            guard position < bytes.count else { return nil }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                guard let unit = hex4() else { return nil }
                // A lone low surrogate is no scalar: `Unicode.Scalar` refuses it.
                guard (0xD800...0xDBFF).contains(unit) else { return Unicode.Scalar(unit) }
                guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")), let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            default: return nil
            }
        }

        mutating func hex4() -> UInt32? {
            guard bytes.count - position >= 4, let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else { return nil }
            guard bytes[position..<position + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") }) else { return nil }
            position += 4
            return value
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as RFC 8259 spells numbers.
        mutating func number() -> JSONValue? {
            let start = position
            _ = consume(UInt8(ascii: "-"))
            guard position < bytes.count else { return nil }
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
            } else {
                guard digits() > 0 else { return nil }
            }
            var integral = true
            if consume(UInt8(ascii: ".")) {
                integral = false
                guard digits() > 0 else { return nil }
            }
            if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
                integral = false
                if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
                guard digits() > 0 else { return nil }
            }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            if integral, let integer = Int64(text) { return .integer(integer) }
            return Double(text).map(JSONValue.number)
        }

        mutating func digits() -> Int {
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            return position - start
        }
    }
}
