import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("JSON text read back")
struct JSONValueParsingTests {
    @Test("values as RFC 8259 writes them: members in order, escapes, surrogate pairs, integers and numbers")
    func knownDocument() throws {
        let text = #"""
             { "name" : "caf\u00e9 \ud834\udd1e \"q\" \\ \/ \b\f\n\r\t", "count": -12, "zero": -0, "big": 9223372036854775807,
               "bigger": 9223372036854775808, "ratio": 1.5e-2, "whole": 1E3, "list": [true, false, null, [], {}], "é": "♪" }
            """#
        let value = try #require(JSONValue(parsing: text))
        let expected = JSONValue.object([
            "name": .string("café 𝄞 \"q\" \\ / \u{08}\u{0C}\n\r\t"), "count": .integer(-12), "zero": .integer(0), "big": .integer(Int64.max),
            "bigger": .number(9_223_372_036_854_775_808), "ratio": .number(0.015), "whole": .number(1000),
            "list": .array([true, false, nil, .array([]), .object([JSONValue.Member]())]), "é": "♪",
        ])
        #expect(value == expected)
        #expect(value["count"] == .integer(-12) && value["name"]?.stringValue?.hasPrefix("café") == true && value["list"]?.arrayValue?.count == 5)
        #expect(value["missing"] == nil && JSONValue.integer(1)["count"] == nil)
    }

    @Test(
        "what is not one JSON value is refused",
        arguments: [
            "", " ", "[1,]", "{\"a\":1,}", "{a:1}", "01", "1.", ".5", "+1", "-", "1e", "tru", "nul", "[1] 2", "\"open", "\"tab\there\"",
            "\"\\ud834\"", "\"\\udd1e\"", "\"\\u12g4\"", "\"\\u+123\"", "\"\\x\"", "[1 2]", "{\"a\" 1}", "{\"a\":}", "\u{FEFF}[]",
        ])
    func refused(text: String) {
        #expect(JSONValue(parsing: text) == nil, "\(text)")
    }

    @Test("nesting deeper than 512 levels is refused rather than recursed into; 500 levels are read")
    func depth() {
        #expect(JSONValue(parsing: String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)) == nil)
        #expect(JSONValue(parsing: String(repeating: "[", count: 500) + String(repeating: "]", count: 500)) != nil)
    }

    /// A random value: strings from the characters that need care (controls, quote, backslash,
    /// C1 controls, DEL, characters past the BMP), numbers with a fraction or huge, integers.
    func randomValue(depth: Int, using generator: inout SeededGenerator) -> JSONValue {
        let scalars: [Unicode.Scalar] = ["a", "\"", "\\", "/", "\n", "\u{01}", "\u{1F}", "\u{7F}", "\u{85}", "é", "♪", "\u{1F3B5}", "\u{FFFF}"]
        func string() -> String { String(String.UnicodeScalarView((0..<Int.random(in: 0...6, using: &generator)).map { _ in scalars.randomElement(using: &generator)! })) }
        switch Int.random(in: 0..<(depth > 3 ? 6 : 8), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer(Int64.random(in: Int64.min...Int64.max, using: &generator))
        case 3: return .number(Double.random(in: -1e6...1e6, using: &generator) + 0.5)
        case 4: return .number(Double(sign: .plus, exponent: Int.random(in: 60...1000, using: &generator), significand: 1.25))
        case 5: return .string(string())
        case 6: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(depth: depth + 1, using: &generator) })
        default:
            return .object((0..<Int.random(in: 0...4, using: &generator)).map { _ in JSONValue.Member(string(), randomValue(depth: depth + 1, using: &generator)) })
        }
    }

    @Test("300 seeded random values written by JSONValue's own writer, compact and indented, read back equal")
    func roundTrip() {
        var generator = SeededGenerator(seed: 39)
        for _ in 0..<300 {
            let value = randomValue(depth: 0, using: &generator)
            #expect(JSONValue(parsing: value.serialized()) == value, "\(value.serialized())")
            #expect(JSONValue(parsing: value.serialized(pretty: true)) == value)
        }
    }

    /// `value` with each part, one time in three, replaced by its own compact text as `.raw`.
    func spliced(_ value: JSONValue, using generator: inout SeededGenerator) -> JSONValue {
        if Int.random(in: 0..<3, using: &generator) == 0 { return .raw(value.serialized()) }
        switch value {
        case .array(let values): return .array(values.map { spliced($0, using: &generator) })
        case .object(let members): return .object(members.map { JSONValue.Member($0.key, spliced($0.value, using: &generator)) })
        default: return value
        }
    }

    @Test("300 seeded random values with parts already serialized (raw): the text of the whole value, read back equal; raw is never re-indented")
    func rawSplice() {
        var generator = SeededGenerator(seed: 40)
        for _ in 0..<300 {
            let value = randomValue(depth: 0, using: &generator)
            let text = spliced(value, using: &generator).serialized()
            #expect(text == value.serialized())
            #expect(JSONValue(parsing: text) == value, "\(text)")
        }
        #expect(JSONValue.object(["result": .raw(#"{"a": [1,2]}"#)]).serialized(pretty: true) == "{\n  \"result\": {\"a\": [1,2]}\n}")
    }
}
