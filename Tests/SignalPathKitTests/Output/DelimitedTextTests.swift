import Testing
@testable import SignalPathKit

@Suite("Delimited text")
struct DelimitedTextTests {
    @Test("CSV quotes fields with a comma, a quote or a line break (CRLF and a quote with a combining mark too) and doubles quotes; TSV escapes")
    func quoting() {
        var csv = DelimitedText(.csv)
        csv.append(["plain", "a,b", "say \"hi\"", "two\nlines", "crlf\r\nend", "\"\u{301}", "é", ""])
        #expect(csv.text == "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"crlf\r\nend\",\"\"\"\u{301}\",é,\n")
        var tsv = DelimitedText(.tsv)
        tsv.append(["a\tb", "c\\d", "crlf\r\nend", "x,y \"z\""])
        #expect(tsv.text == "a\\tb\tc\\\\d\tcrlf\\r\\nend\tx,y \"z\"\n")
    }
}
