#!/usr/bin/env python3
"""Size budgets for the Swift sources: functions (and initialisers, accessors, closures given to
a declaration) at most 80 lines, files at most 450 lines, except the C doors (the one file per C
library that imports its module: their length is the library's API, not a design smell).

A function's lines run from its `func`/`init` line to its closing brace. Lines are counted as
they are in the file, comments included: what a reader has to hold.

    scripts/check-budgets.py [--strict] [--root DIR ...]

Without --strict only the file budget fails the run (functions over theirs are listed); `make
lint` passes --strict, so both budgets are enforced: a function over 80 lines is split into named
steps, there is no allow-list.
"""
import argparse, pathlib, re, sys

FUNCTION_LINES = 80
FILE_LINES = 450
c_door = re.compile(r"^import (C[A-Z]\w*|Glibc)\b", re.M)
declaration = re.compile(r"^\s*(?:@[\w()\":, ]+\s+)*(?:(?:public|package|internal|fileprivate|private|static|class|final|override|"
                         r"mutating|nonmutating|nonisolated|convenience|required|@inlinable|@usableFromInline)\s+)*"
                         r"(func\s+[^\s(<]+|init[?!]?|deinit)\b")


def code_only(line, in_block):
    """The line with comments and string contents blanked (braces inside them do not count)."""
    out, i = [], 0
    while i < len(line):
        if in_block:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            i, in_block = end + 2, False
            continue
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            in_block, i = True, i + 2
            continue
        if line[i] == '"':
            end = i + 1
            while end < len(line) and line[end] != '"':
                end += 2 if line[end] == "\\" else 1
            out.append('""')
            i = end + 1
            continue
        out.append(line[i])
        i += 1
    return "".join(out), in_block


def functions(lines):
    """(name, first line, line count) of each function, initialiser and deinitialiser with a body."""
    found, stack, in_block, in_multiline = [], [], False, False
    depth = 0
    for number, raw in enumerate(lines, 1):
        if raw.strip().startswith('"""'):
            in_multiline = not in_multiline if raw.strip().count('"""') == 1 else in_multiline
            continue
        if in_multiline:
            continue
        line, in_block = code_only(raw, in_block)
        match = declaration.match(line)
        if match:
            stack.append((match.group(1).replace("func ", ""), number, depth))
        for ch in line:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                while stack and stack[-1][2] == depth and stack[-1][1] <= number:
                    name, start, _ = stack.pop()
                    found.append((name, start, number - start + 1))
        # A declaration without a body (a protocol requirement) ends at its line.
        if match and "{" not in line and stack and stack[-1][1] == number and not line.rstrip().endswith(("(", ",")):
            stack.pop()
    return found


def check(roots):
    over_files, over_functions = [], []
    for root in roots:
        for path in sorted(pathlib.Path(root).rglob("*.swift")):
            text = path.read_text()
            lines = text.split("\n")
            if text.endswith("\n"):
                lines.pop()
            door = bool(c_door.search(text))
            if not door and len(lines) > FILE_LINES:
                over_files.append(f"{path}: {len(lines)} lines (budget {FILE_LINES})")
            for name, start, count in functions(lines):
                if count > FUNCTION_LINES:
                    over_functions.append(f"{path}:{start}: {name} is {count} lines (budget {FUNCTION_LINES})")
    return over_files, over_functions


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--strict", action="store_true", help="fail when any budget is exceeded")
    parser.add_argument("--root", action="append", help="a folder of Swift sources (default: Sources)")
    arguments = parser.parse_args()
    roots = arguments.root or [str(pathlib.Path(__file__).resolve().parent.parent / "Sources")]
    over_files, over_functions = check(roots)
    for line in over_files + over_functions:
        print("  " + line, file=sys.stderr)
    if not over_files and not over_functions:
        print(f"budgets: no function over {FUNCTION_LINES} lines, no file over {FILE_LINES} outside the C doors")
        return
    summary = f"budgets: {len(over_functions)} functions over {FUNCTION_LINES} lines, {len(over_files)} files over {FILE_LINES} lines outside the C doors"
    if over_files or arguments.strict:
        print(summary, file=sys.stderr)
        sys.exit(1)
    print(summary + " (functions: reported; --strict fails on them)", file=sys.stderr)

if __name__ == "__main__":
    main()
