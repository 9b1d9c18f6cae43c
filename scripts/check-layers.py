#!/usr/bin/env python3
"""Fails when a lower layer of SignalPathKit names a type or function of a higher one.

The pipeline's stages (Support, IO, Decoding, Selection, Spectral, Analysis) compute; the
presentation layers (Output, Rendering, Terminal, Live) show and drive. Computing code that
named a presentation type could not be reused without it (scan, pictures), so `make test`
checks that no stage file mentions a name declared in a presentation folder.
"""
import pathlib, re, sys

root = pathlib.Path(__file__).resolve().parent.parent / "Sources" / "SignalPathKit"
lower = ["Support", "IO", "Decoding", "Selection", "Spectral", "Analysis"]
upper = ["Output", "Rendering", "Terminal", "Live", "Archive"]

# Declarations at file scope (nested types and members are reached through them).
declaration = re.compile(r"^(?:@\w+ )*(?:public |package |internal |fileprivate |private |final |indirect )*"
                         r"(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z][A-Za-z0-9_]*)"
                         r"|^(?:public |package |internal )?(?:func|var|let)\s+([A-Za-z_][A-Za-z0-9_]*)", re.M)

def names(text):
    return [a or b for a, b in declaration.findall(text)]

def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)

upper_names = {}
for folder in upper:
    for path in (root / folder).rglob("*.swift"):
        for name in names(strip_comments(path.read_text())):
            upper_names.setdefault(name, path.relative_to(root))
# Names also declared in a lower layer (extensions' methods, common words) are not evidence.
for folder in lower:
    for path in (root / folder).rglob("*.swift"):
        for name in names(strip_comments(path.read_text())):
            upper_names.pop(name, None)

failures = []
for folder in lower:
    for path in sorted((root / folder).rglob("*.swift")):
        code = strip_comments(path.read_text())
        for name, home in upper_names.items():
            if re.search(r"(?<![A-Za-z0-9_.])" + re.escape(name) + r"\b", code):
                failures.append(f"{path.relative_to(root)} names {name} ({home})")
if failures:
    print("Layering: stage code must not name presentation code (scripts/check-layers.py):", file=sys.stderr)
    for line in failures:
        print("  " + line, file=sys.stderr)
    sys.exit(1)
print(f"layers: {len(upper_names)} presentation names, none used by {', '.join(lower)}")
