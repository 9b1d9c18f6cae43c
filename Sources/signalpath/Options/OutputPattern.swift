import ArgumentParser

/// An `--output` that names one file per input: `{stem}`, `{name}` and `{dir}` become each input's
/// file name without its extension, with it, and its directory (`.` when it names none; standard
/// input is `stdin` in `.`). `pictures/{stem}.png` turns `takes/a.wav` into `pictures/a.png`.
struct OutputPattern: Equatable, Sendable {
    static let placeholders = ["stem", "name", "dir"]

    let text: String

    /// nil for a plain file name (no `{`); a usage error for a placeholder that is none of the three
    /// or a brace left open.
    init?(_ text: String) throws {
        guard text.contains("{") || text.contains("}") else { return nil }
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            guard rest[open] == "{", let close = rest[open...].firstIndex(of: "}") else {
                throw ValidationError("--output \(text): a brace without its pair; placeholders are {stem}, {name} and {dir}.")
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard Self.placeholders.contains(name) else {
                throw ValidationError("--output \(text): {\(name)} is no placeholder; they are {stem}, {name} and {dir}.")
            }
            rest = rest[rest.index(after: close)...]
        }
        self.text = text
    }

    /// The output file for `input`.
    func path(for input: String) -> String {
        let name = input == "-" ? "stdin" : String(input.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        let directory: String
        if input == "-" || !input.contains("/") {
            directory = "."
        } else {
            let head = String(input[..<input.lastIndex(of: "/")!])
            directory = head.isEmpty ? "/" : head
        }
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let values = ["stem": stem, "name": name, "dir": directory]
        // The text was checked when parsed: every brace opens one of the three placeholders.
        var path = "", rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            path += rest[..<open] + values[String(rest[rest.index(after: open)..<close]), default: ""]
            rest = rest[rest.index(after: close)...]
        }
        return path + rest
    }
}
