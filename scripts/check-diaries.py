#!/usr/bin/env python3
"""Fails when a comment under Sources/ holds a benchmark diary.

Comments say why, in a line or two; the figures that justified a decision (timings before and
after, instruction counts, paired rounds) live in docs/DECISIONS.md, where they have one home and
a date, and the comment points there. A comment block is a diary when it has:

- a timing or count before and after an arrow: `12.3 → 8.4 ms`, `62.8 -> 55.8 M`;
- a timing set against another: `5.5 s against 2.3 s`, `213 s instead of 173`, `from 2.40 to 5.11 s`;
- a profiler or benchmark tool's name together with a figure: `(callgrind) 154 M`,
  `hyperfine: 0.66 s`, `perf stat … 16.7 ms`;
- the words of a measurement log: `M instructions`, `paired rounds`, `paired ratio`,
  `alternating runs`, `interleaved runs`.

Usage: check-diaries.py [PATH…] (default: Sources/). Exit 1 with one line per diary found.
"""
import pathlib, re, sys

NUMBER = r"[0-9][0-9 ,.]*(?:[·x×]10[⁻\-]?[0-9⁰¹²³⁴⁵⁶⁷⁸⁹]+)?"
UNIT = r"(?:\s*(?:ns|µs|us|ms|s|min|M|k|G|MB|MiB|kB|KiB|GB|GiB|%|x|×))?"
ARROW = re.compile(NUMBER + UNIT + r"\s*(?:→|->)\s*" + NUMBER)
TOOL = re.compile(r"\b(?:callgrind|cachegrind|valgrind|hyperfine|perf(?:\s+(?:stat|record|report))?|bench(?:mark)?ed)\b", re.I)
FIGURE = re.compile(r"\b[0-9]+(?:\.[0-9]+)?\s*(?:ns|µs|us|ms|s|M|MB|%)(?![A-Za-z])|[0-9]+\.[0-9]+")
TIMED = r"[0-9]+(?:\.[0-9]+)?(?:–[0-9.]+)?\s*(?:ns|µs|ms|s|MB|M|%)"
VERSUS = re.compile(TIMED + r"(?: of [^,;.]{1,30})?\s+(?:against|instead of)\s+[0-9]"
                    r"|\bfrom [0-9]+(?:\.[0-9]+)? to [0-9]+(?:\.[0-9]+)?\s*(?:ns|µs|ms|s|MB|M|%)(?![A-Za-z])")
PHRASES = re.compile(r"\bM instructions\b|\bpaired (?:rounds?|ratio|runs?)\b|\b(?:alternating|interleaved) runs\b", re.I)

def comment_blocks(text):
    """Runs of consecutive comment lines (`//`, `///`, or inside `/* … */`), as (first line, text)."""
    blocks, current, start, in_block_comment = [], [], 0, False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        comment = None
        if in_block_comment:
            comment = stripped
            if "*/" in stripped:
                in_block_comment = False
        elif stripped.startswith("/*"):
            comment = stripped
            in_block_comment = "*/" not in stripped
        elif "//" in line:
            # A trailing comment after code counts too; `//` inside a string literal is rare
            # enough in this code base (URLs) that a string is simply not a comment here.
            before, _, after = line.partition("//")
            if before.count('"') % 2 == 0:
                comment = after
        if comment is not None:
            if not current:
                start = number
            current.append(comment.lstrip("/*! ").rstrip("*/ "))
        elif current:
            blocks.append((start, " ".join(current)))
            current = []
    if current:
        blocks.append((start, " ".join(current)))
    return blocks

MEASURED = re.compile(r"[0-9]+\.[0-9]+|[0-9]{3}|[0-9]\s*(?:ns|µs|us|ms|s|min|M|MB|MiB|kB|KiB|GB|GiB|%|×)(?![A-Za-z])")

def diary_reason(comment):
    """Why a comment block reads as a benchmark diary, or None."""
    for match in ARROW.finditer(comment):
        # Figures, not a step like `0 -> 1`: a decimal, three digits or a unit on either side.
        if MEASURED.search(match.group(0)):
            return f"before → after figures ({match.group(0).strip()})"
    if match := VERSUS.search(comment):
        return f"figures against figures ({match.group(0).strip()})"
    if match := PHRASES.search(comment):
        return f"measurement log ({match.group(0)})"
    if (tool := TOOL.search(comment)) and FIGURE.search(comment):
        return f"{tool.group(0)} with figures"
    return None

def findings(paths):
    for root in paths:
        root = pathlib.Path(root)
        files = [root] if root.is_file() else sorted(root.rglob("*.swift")) + sorted(root.rglob("*.c")) + sorted(root.rglob("*.h"))
        for path in files:
            for line, comment in comment_blocks(path.read_text(encoding="utf-8", errors="replace")):
                if reason := diary_reason(comment):
                    yield f"{path}:{line}: {reason}"

def main(arguments):
    paths = arguments or [str(pathlib.Path(__file__).resolve().parent.parent / "Sources")]
    found = list(findings(paths))
    if found:
        print("Benchmark diaries in comments: keep the decision in a line or two and point to "
              "docs/DECISIONS.md, where the figures go (scripts/check-diaries.py):", file=sys.stderr)
        for line in found:
            print("  " + line, file=sys.stderr)
        return 1
    print(f"diaries: none in {', '.join(paths)}")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
