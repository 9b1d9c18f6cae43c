#!/usr/bin/env python3
"""Man pages for signalpath, one per command, from swift-argument-parser's manual generator.

    manual.py GENERATE_MANUAL_TOOL SIGNALPATH OUTPUT_DIRECTORY

The generator (`generate-manual`, built by `swift package plugin generate-manual`) runs a tool
with --experimental-dump-help and writes mdoc. Three things it does are fixed here, so the pages
say what `--help` says:
- it drops every non-ASCII character (`0.25× … 8×` became `0.25  8`): the help is handed to it
  with each one replaced by a marker, which becomes groff's \\[uXXXX] afterwards;
- blank lines between paragraphs stay blank lines (mdoc warns about each): they become .Pp;
- the indented example commands are filled and wrapped like prose: they become literal blocks,
  so a command is never broken across lines.
The `help` subcommand's page (a page about asking for help) is left out.
"""
import json, os, pathlib, re, stat, subprocess, sys, tempfile

MARKER = re.compile(r"@@U([0-9A-F]{4,6})@@")


def ascii_only(value):
    """Every non-ASCII character of every string in a JSON value replaced by its marker."""
    if isinstance(value, str):
        return "".join(c if ord(c) < 128 else "@@U%04X@@" % ord(c) for c in value)
    if isinstance(value, list):
        return [ascii_only(v) for v in value]
    if isinstance(value, dict):
        return {k: ascii_only(v) for k, v in value.items()}
    return value


def dump(signalpath):
    """What signalpath --experimental-dump-help prints, with markers for non-ASCII characters."""
    text = subprocess.run([signalpath, "--experimental-dump-help"], check=True, capture_output=True).stdout
    sys.stdout.write(json.dumps(ascii_only(json.loads(text))))


def fix(page):
    """The generator's mdoc with paragraphs, literal examples and Unicode restored."""
    lines = page.split("\n")
    out, in_example = [], False
    for line in lines:
        example = line.startswith("  ") and not line.startswith(".")
        if example and not in_example:
            out.append(".Bd -literal -offset indent")
            in_example = True
        elif not example and in_example:
            out.append(".Ed")
            in_example = False
        if example:
            out.append(line[2:])
        elif line == "":
            out.append(".Pp")
        elif not line.startswith(".Xr signalpath.help "):
            out.append(line)
    if in_example:
        out.append(".Ed")
    # A paragraph break right before a section, list or block start, or at the end, is noise.
    text = "\n".join(out).rstrip("\n") + "\n"
    text = re.sub(r"\.Pp\n(?=\.(Sh|Bl|It|Bd|Pp|El)\b)", "", text)
    text = re.sub(r"(\n\.Pp)+\n*$", "\n", text)
    return MARKER.sub(lambda m: "\\[u%s]" % m.group(1), text)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--dump":
        return dump(sys.argv[2])
    tool, signalpath, output = sys.argv[1:4]
    os.makedirs(output, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        # The generator runs the tool it documents: this one prints signalpath's help, marked.
        wrapper = pathlib.Path(scratch) / "signalpath"
        wrapper.write_text('#!/bin/sh\nexec "%s" "%s" --dump "%s"\n' % (sys.executable, os.path.abspath(__file__), os.path.abspath(signalpath)))
        wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
        pages = pathlib.Path(scratch) / "pages"
        pages.mkdir()
        subprocess.run([tool, str(wrapper), "--multi-page", "--output-directory", str(pages)], check=True)
        for page in sorted(pages.glob("*.1")):
            if page.name == "signalpath.help.1":
                continue
            (pathlib.Path(output) / page.name).write_text(fix(page.read_text()))
            print(pathlib.Path(output) / page.name)


if __name__ == "__main__":
    main()
