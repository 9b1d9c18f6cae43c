#!/usr/bin/env python3
"""Facts about chart images, read with Pillow and numpy (independent of signalpath's Cairo code).

  chart_facts.py frame PNG AXIS_HEX
      the plot frame: the longest horizontal runs of the axis colour give its top and bottom
      rows, the run on the top row its left and right columns. Prints JSON with the inner plot
      area (left, top, right, bottom: the first and last pixel inside the frame) and the size.
  chart_facts.py rows PNG AXIS_HEX
      the frame, and per inner row its mean luminance (a heat map's brightness by row), and the
      colour bar right of the frame: its colours from top to bottom along its middle column.
  chart_facts.py topmost PNG AXIS_HEX TRACE_HEX
      the frame, and the highest pixel inside it within 60 (sum of channel differences) of the
      trace colour: its x and y.
  chart_facts.py svg FILE.svg
      parses the SVG (xml.etree): the number of elements, of text, image and rect elements, and
      of paths per stroke colour (#rrggbb, from cairo's `stroke:rgb(p%,p%,p%)` styles).
  chart_facts.py compare A.png B.png
      mean absolute difference per channel (0-255) and the fraction of pixels differing by more
      than 64 in some channel.
"""
import json, re, sys
import xml.etree.ElementTree as ElementTree
import numpy as np
from PIL import Image


def load(path):
    return np.asarray(Image.open(path).convert("RGB")).astype(np.int32)


def rgb(hexcode):
    value = int(hexcode.lstrip("#"), 16)
    return np.array([value >> 16 & 255, value >> 8 & 255, value & 255])


def longest_run(mask):
    best, start, best_range = 0, None, (0, -1)
    for i, on in enumerate(list(mask) + [False]):
        if on and start is None:
            start = i
        elif not on and start is not None:
            if i - start > best:
                best, best_range = i - start, (start, i - 1)
            start = None
    return best_range


def frame(image, axis):
    matches = np.all(image == axis, axis=2)
    height, width = matches.shape
    runs = [longest_run(matches[y]) for y in range(height)]
    long_rows = [y for y in range(height) if runs[y][1] - runs[y][0] + 1 > 0.4 * width]
    top, bottom = long_rows[0], long_rows[-1]
    left, right = runs[top]
    return {"left": left + 1, "top": top + 1, "right": right - 1, "bottom": bottom - 1, "width": width, "height": height}


def main():
    command = sys.argv[1]
    if command == "svg":
        root = ElementTree.parse(sys.argv[2]).getroot()
        elements = list(root.iter())
        name = lambda element: element.tag.rsplit("}", 1)[-1]
        stroked = {}
        for element in elements:
            match = re.search(r"stroke:rgb\(([\d.]+)%,([\d.]+)%,([\d.]+)%\)", element.get("style", ""))
            if name(element) == "path" and match:
                key = "#" + "".join(f"{round(float(p) * 2.55):02x}" for p in match.groups())
                stroked[key] = stroked.get(key, 0) + 1
        print(json.dumps({"elements": len(elements), "text": sum(name(e) == "text" for e in elements),
                          "image": sum(name(e) == "image" for e in elements), "rect": sum(name(e) == "rect" for e in elements),
                          "stroked": stroked}))
        return
    if command == "compare":
        a, b = load(sys.argv[2]), load(sys.argv[3])
        if a.shape != b.shape:
            print(json.dumps({"shape_a": a.shape, "shape_b": b.shape}))
            return
        difference = np.abs(a - b)
        print(json.dumps({"mean": float(difference.mean()), "over64": float(np.mean(difference.max(axis=2) > 64))}))
        return
    image = load(sys.argv[2])
    facts = frame(image, rgb(sys.argv[3]))
    inner = image[facts["top"]:facts["bottom"] + 1, facts["left"]:facts["right"] + 1]
    if command == "rows":
        luminance = inner @ np.array([0.2126, 0.7152, 0.0722])
        facts["row_luminance"] = [float(v) for v in luminance.mean(axis=1)]
        # The colour bar: the first column right of the frame whose middle pixel is neither the
        # background nor grey, then that bar's middle column from top to bottom.
        middle = (facts["top"] + facts["bottom"]) // 2
        background = image[1, 1]
        column = None
        for x in range(facts["right"] + 3, facts["width"]):
            pixel = image[middle, x]
            if np.abs(pixel - background).sum() > 30 and pixel.max() - pixel.min() > 40:
                column = x
                break
        if column is not None:
            run = [x for x in range(column, facts["width"]) if image[middle, x].max() - image[middle, x].min() > 40]
            centre = (run[0] + run[-1]) // 2 if run else column
            facts["bar"] = [[int(c) for c in image[y, centre]] for y in range(facts["top"], facts["bottom"] + 1)]
    elif command == "topmost":
        trace = rgb(sys.argv[4])
        close = np.abs(inner - trace).sum(axis=2) < 60
        ys, xs = np.nonzero(close)
        if len(ys):
            first = int(np.argmin(ys))
            facts["x"], facts["y"] = int(xs[first]), int(ys[first])
    print(json.dumps(facts))


main()
