import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Output formatting")
struct OutputTests {
    @Test("JSON keeps key order, prints integers as integers, escapes control characters, and turns NaN into null")
    func json() {
        let value = JSONValue.object([
            "schema": "x/1",
            "count": 3,
            "ratio": .number(0.25),
            "whole": .number(2.0),
            "missing": .number(Double.nan),
            "infinite": .number(-Double.infinity),
            "text": .string("quote \" backslash \\ newline \n escape \u{1B} bell \u{07} é ♪"),
            "list": .array([true, false, nil]),
            "empty": .object([JSONValue.Member]()),
        ])
        #expect(
            value.serialized()
                == #"{"schema":"x/1","count":3,"ratio":0.25,"whole":2,"missing":null,"infinite":null,"text":"quote \" backslash \\ newline \n escape \u001b bell \u0007 é ♪","list":[true,false,null],"empty":{}}"#
        )
        #expect(JSONValue.array([1, 2]).serialized(pretty: true) == "[\n  1,\n  2\n]")
        #expect(UnitFormat.shortest(1e-7) == "1e-07" && UnitFormat.shortest(-6.02) == "-6.02" && UnitFormat.shortest(1e20) == "1e+20")
    }

    /// Strings are appended whole when no byte needs an escape; this checks that shortcut against
    /// a scalar-by-scalar model over seeded strings built from the edge cases: C0 and C1 controls,
    /// DEL, quote and backslash, and neighbours that need no escape (U+00A0 is 0xC2 0xA0; U+0100 is
    /// 0xC4 0x80, a C1-like byte after another lead byte).
    @Test("JSON strings: the whole-string shortcut escapes exactly what a scalar-by-scalar model escapes")
    func jsonStringShortcut() {
        let pieces: [Unicode.Scalar] = ["a", "é", "♪", "\u{A0}", "\u{100}", "\u{7E}", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\u{1F}", "\"", "\\", "\n", "\u{1B}"]
        func model(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        var random = SeededGenerator(seed: 31)
        var shortcuts = 0
        for _ in 0..<2000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                // Mostly harmless pieces, so that many strings take the shortcut.
                let piece = Int.random(in: 0..<10, using: &random) < 7 ? pieces[Int.random(in: 0..<6, using: &random)] : pieces.randomElement(using: &random)!
                text.unicodeScalars.append(piece)
            }
            if text.unicodeScalars.allSatisfy({ pieces.prefix(6).contains($0) }) { shortcuts += 1 }
            #expect(JSONValue.string(text).serialized() == model(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(shortcuts > 200 && shortcuts < 1900, "\(shortcuts) plain strings")
    }

    @Test("terminal text shows control characters and escape sequences escaped")
    func terminalText() {
        #expect(TerminalText.sanitized("plain ♪ text") == "plain ♪ text")
        #expect(TerminalText.sanitized("\u{1B}[31mred\u{1B}]0;title\u{07}") == "\\e[31mred\\e]0;title\\x07")
        #expect(TerminalText.sanitized("a\nb\tc\r\u{7F}") == "a\\nb\\tc\\r\\x7F")
        #expect(TerminalText.sanitized("\u{9B}31m \u{202E}evil") == "\\u{009B}31m \\u{202E}evil")
        #expect(TerminalText.sanitized("back\\slash") == "back\\\\slash", "a literal backslash cannot forge an escape")
    }

    @Test("numbers for people are locale-independent and rounded as stated")
    func units() {
        #expect(UnitFormat.fixed(-6.0206, 2) == "-6.02")
        #expect(UnitFormat.fixed(0.0004, 3) == "0.000" && UnitFormat.fixed(-0.0004, 3) == "0.000")
        #expect(UnitFormat.fixed(2, 3) == "2.000" && UnitFormat.fixed(1234.5, 0) == "1235")
        #expect(UnitFormat.fixed(.nan, 2) == "nan")
        #expect(UnitFormat.bytes(512) == "512 B" && UnitFormat.bytes(192_116) == "187.6 KiB")
        #expect(UnitFormat.bytes(5 << 30) == "5.00 GiB")
        #expect(UnitFormat.frequency(440) == "440 Hz" && UnitFormat.frequency(997.25) == "997.3 Hz")
        #expect(UnitFormat.frequency(1000) == "1.00 kHz" && UnitFormat.frequency(22_050) == "22.05 kHz")
        #expect(UnitFormat.grouped(2_880_000) == "2 880 000" && UnitFormat.grouped(-1000) == "-1 000" && UnitFormat.grouped(999) == "999")
    }
}
