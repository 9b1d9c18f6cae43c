#!/usr/bin/env python3
"""Fails when SignalPathKit's layers or a layer's folders depend on each other in a circle, or
when a stage names presentation code.

SignalPathKit is one module, so nothing is imported: a file depends on another folder when it
names a type or function declared there (at file scope). Two rules over those dependencies:

1. The pipeline's stages (Support, IO, Decoding, Selection, Spectral, Analysis) compute; the
   presentation layers (Output, Rendering, Terminal, Live, Archive) show and drive. Computing
   code that named a presentation type could not be reused without it (scan, pictures), so no
   stage file may mention a name declared in a presentation folder.
2. No cycles: between the layers (the top-level folders), and between the sub-folders of one
   layer (Analysis/Levels, Analysis/Loudness, …; files directly in a layer's folder count as its
   own unit). A cycle means neither side can be read, tested or moved without the other; the
   message names, for each step of the cycle, a file and the name it uses.

    scripts/check-layers.py [--root Sources/SignalPathKit]
"""
import argparse, pathlib, re, sys

LOWER = ["Support", "IO", "Decoding", "Selection", "Spectral", "Analysis"]
UPPER = ["Output", "Rendering", "Terminal", "Live", "Archive"]

# Declarations at file scope (nested types and members are reached through them).
declaration = re.compile(r"^(?:@\w+ )*(?:public |package |internal |fileprivate |private |final |indirect )*"
                         r"(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z][A-Za-z0-9_]*)"
                         r"|^(?:public |package |internal )?(?:func|var|let)\s+([A-Za-z_][A-Za-z0-9_]*)", re.M)
word = re.compile(r"(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_]*")


def names(text):
    return [a or b for a, b in declaration.findall(text)]


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def strip_strings(text):
    return re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)


def presentation_failures(root, code):
    upper_names = {}
    for path, text in code.items():
        if path.parts[0] in UPPER:
            for name in names(text):
                upper_names.setdefault(name, path)
    # Names also declared in a lower layer (extensions' methods, common words) are not evidence.
    for path, text in code.items():
        if path.parts[0] in LOWER:
            for name in names(text):
                upper_names.pop(name, None)
    failures = []
    for path, text in sorted(code.items()):
        if path.parts[0] not in LOWER:
            continue
        for name, home in upper_names.items():
            if re.search(r"(?<![A-Za-z0-9_.])" + re.escape(name) + r"\b", text):
                failures.append(f"{path} names {name} ({home})")
    return failures, len(upper_names)


def dependencies(code, unit_of):
    """(unit, unit) → sorted [(file, name)] for every name a file uses from another unit."""
    owners = {}
    for path, text in code.items():
        for name in names(text):
            owners.setdefault(name, set()).add(unit_of(path))
    # A name declared in two units (an extension's method, a common word) says nothing.
    home = {name: units.pop() for name, units in owners.items() if len(units) == 1}
    edges = {}
    for path, text in code.items():
        here = unit_of(path)
        for name in set(word.findall(strip_strings(text))):
            there = home.get(name)
            if there is not None and there != here:
                edges.setdefault((here, there), []).append((str(path), name))
    return {edge: sorted(uses) for edge, uses in edges.items()}


def cycles(edges):
    """The strongly connected components of more than one unit (Tarjan), each as a cycle's path."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    # One concrete cycle per component: the shortest way back from its first unit.
    paths = []
    for component in found:
        members, start = set(component), component[0]
        previous, queue = {start: None}, [start]
        while queue:
            node = queue.pop(0)
            for nxt in sorted(graph[node]):
                if nxt == start:
                    path = [node]
                    while previous[path[-1]] is not None:
                        path.append(previous[path[-1]])
                    paths.append(list(reversed(path)) + [start])
                    queue = []
                    break
                if nxt in members and nxt not in previous:
                    previous[nxt] = node
                    queue.append(nxt)
    return paths


def cycle_failures(code):
    failures = []
    layer_edges = dependencies(code, lambda path: path.parts[0])
    checks = [("layers", layer_edges)]
    for layer in sorted({path.parts[0] for path in code}):
        inside = {path: text for path, text in code.items() if path.parts[0] == layer}
        if any(len(path.parts) > 2 for path in inside):
            checks.append((f"{layer}/ folders", dependencies(inside, lambda path: "/".join(path.parts[:2]) if len(path.parts) > 2 else path.parts[0])))
    for what, edges in checks:
        for path in cycles(edges):
            steps = "; ".join(f"{a} → {b} ({edges[(a, b)][0][0]} names {edges[(a, b)][0][1]})" for a, b in zip(path, path[1:]))
            failures.append(f"cycle between {what}: {' → '.join(path)}: {steps}")
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=str(pathlib.Path(__file__).resolve().parent.parent / "Sources" / "SignalPathKit"))
    root = pathlib.Path(parser.parse_args().root)
    code = {path.relative_to(root): strip_comments(path.read_text()) for path in root.rglob("*.swift") if len(path.relative_to(root).parts) > 1}
    failures, presentation_names = presentation_failures(root, code)
    if failures:
        print("Layering: stage code must not name presentation code (scripts/check-layers.py):", file=sys.stderr)
        for line in failures:
            print("  " + line, file=sys.stderr)
    cycle_lines = cycle_failures(code)
    if cycle_lines:
        print("Layering: dependencies must not go round in a circle (scripts/check-layers.py):", file=sys.stderr)
        for line in cycle_lines:
            print("  " + line, file=sys.stderr)
    if failures or cycle_lines:
        sys.exit(1)
    print(f"layers: {presentation_names} presentation names, none used by {', '.join(LOWER)}; no cycle between layers or between a layer's folders")


if __name__ == "__main__":
    main()
