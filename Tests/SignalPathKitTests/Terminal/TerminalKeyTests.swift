import Testing
@testable import SignalPathKit

@Suite("TerminalKey: the bytes terminals send for keys")
struct TerminalKeyTests {
    func keys(_ text: String) -> [TerminalKey] { TerminalKey.decode(Array(text.utf8)) }

    @Test(
        "xterm's sequences (ctlseqs: CSI in normal mode, SS3 in application mode; modifier 2 = shift), rxvt's and the VT220 editing keys",
        arguments: [
            ("\u{1B}[D", TerminalKey.left), ("\u{1B}[C", .right), ("\u{1B}[A", .up), ("\u{1B}[B", .down),
            ("\u{1B}OD", .left), ("\u{1B}OC", .right), ("\u{1B}OA", .up), ("\u{1B}OB", .down),
            ("\u{1B}[1;2D", .shiftLeft), ("\u{1B}[1;2C", .shiftRight),
            ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
            ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}OH", .home), ("\u{1B}OF", .end),
            ("\u{1B}[1~", .home), ("\u{1B}[4~", .end), ("\u{1B}[7~", .home), ("\u{1B}[8~", .end),
        ])
    func sequences(bytes: String, key: TerminalKey) {
        #expect(keys(bytes) == [key])
    }

    @Test("one read can hold several keys; Ctrl-C is byte 3; a lone ESC is Esc; UTF-8 characters stay whole")
    func mixed() {
        #expect(keys("q\u{1B}[C \u{03}") == [.character("q"), .right, .character(" "), .interrupt])
        #expect(keys("\u{1B}") == [.escape])
        #expect(keys("\u{1B}x") == [.escape, .character("x")], "Esc then a key, as Alt-x arrives")
        #expect(keys("é€😀+") == [.character("é"), .character("€"), .character("😀"), .character("+")])
    }

    @Test("sequences that mean nothing here are skipped whole; one cut off at the end of a read is Esc and its bytes")
    func unknownAndCut() {
        // F5 (CSI 15~) and Ctrl-→ (CSI 1;5C is → with a modifier that is not shift: still →).
        #expect(keys("\u{1B}[15~v") == [.character("v")])
        #expect(keys("\u{1B}[1;5C") == [.right])
        #expect(keys("\u{1B}[1;2") == [.escape, .character("["), .character("1"), .character(";"), .character("2")])
    }
}
