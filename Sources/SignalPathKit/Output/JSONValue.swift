/// A JSON document built in code, serialized with keys in the order they were given.
///
/// Our own small type rather than `JSONEncoder`, because machine output needs a stable key order
/// (`schema` first), integers printed as integers, and non-finite numbers as `null` rather than an
/// encoding error: a value that does not exist is `null`, never NaN.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([Member])
    /// JSON text that is already serialized (a stored record), written as it is: neither escaped
    /// nor re-indented. Whoever makes one vouches that it is one JSON value.
    case raw(String)

    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue

        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object from key–value pairs in order.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { Member($0.key, $0.value) })
    }

    /// A number, or null when `value` is nil or not finite.
    public static func number(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        return .number(value)
    }

    /// The JSON text: one line, or indented by two spaces per level when `pretty`.
    public func serialized(pretty: Bool = false) -> String {
        var output = ""
        write(to: &output, pretty: pretty, indent: 0)
        return output
    }

    private func write(to output: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .number(let value): output += value.isFinite ? UnitFormat.shortest(value) : "null"
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .raw(let text): output += text
        case .array(let values):
            writeContainer(open: "[", close: "]", count: values.count, to: &output, pretty: pretty, indent: indent) { index, output in
                values[index].write(to: &output, pretty: pretty, indent: indent + 1)
            }
        case .object(let members):
            writeContainer(open: "{", close: "}", count: members.count, to: &output, pretty: pretty, indent: indent) { index, output in
                JSONValue.writeString(members[index].key, to: &output)
                output += pretty ? ": " : ":"
                members[index].value.write(to: &output, pretty: pretty, indent: indent + 1)
            }
        }
    }

    private func writeContainer(
        open: String, close: String, count: Int, to output: inout String, pretty: Bool,
        indent: Int, element: (Int, inout String) -> Void
    ) {
        output += open
        guard count > 0 else {
            output += close
            return
        }
        let inner = pretty ? "\n" + String(repeating: "  ", count: indent + 1) : ""
        for index in 0..<count {
            output += index == 0 ? inner : "," + inner
            element(index, &output)
        }
        output += pretty ? "\n" + String(repeating: "  ", count: indent) + close : close
    }

    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        // Most strings (keys, names, paths) need no escape: appended whole, not scalar by scalar
        // (docs/DECISIONS.md#csv-bytes). C1 controls are U+0080…U+009F, in UTF-8 0xC2 followed by
        // 0x80…0x9F.
        var previous: UInt8 = 0
        let plain = value.utf8.allSatisfy { byte in
            defer { previous = byte }
            return byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0x7F && !(previous == 0xC2 && byte <= 0x9F)
        }
        if plain {
            output += value
            output += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value):
                output += "\\u" + hex4(scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
}
