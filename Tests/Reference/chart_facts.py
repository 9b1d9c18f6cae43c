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
  chart_facts.py loudness PNG AXIS_HEX SHORT_HEX MOMENTARY_HEX
      the frame, and the trace pixels inside it classed by hue: within 12 degrees of the hue of
      SHORT_HEX or of MOMENTARY_HEX, with a chroma (largest minus smallest channel) over 24 — a
      colour faded towards a white background keeps its hue. Per inner column whether each class
      appears there ("short_columns", "momentary_columns"); each class's pixel count and its
      contrast with the background (the 90th percentile of the summed channel differences:
      the line's core, not its anti-aliased edges); the momentary-hue pixels of the whole image
      (legend included); and the labels inside the plot: grey text pixels (chroma under 25,
      luminance under 150) in connected components at least 4 px tall, joined into one label
      when under 10 px apart on the same line, those at least 24 px wide kept: each label's box
      (in inner coordinates) and the trace pixels (any chroma over 24) within 1 px of it.
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


def hue(pixels):
    """Hue in degrees (0-360) and chroma of RGB pixels (int arrays, last axis the channels)."""
    r, g, b = (pixels[..., i].astype(np.float64) for i in range(3))
    high, low = pixels.max(axis=-1), pixels.min(axis=-1)
    chroma = (high - low).astype(np.float64)
    safe = np.where(chroma == 0, 1, chroma)
    degrees = np.where(high == r, ((g - b) / safe) % 6, np.where(high == g, (b - r) / safe + 2, (r - g) / safe + 4)) * 60
    return degrees, chroma


def loudness_facts(image, facts, short, momentary):
    from scipy import ndimage
    inner = image[facts["top"]:facts["bottom"] + 1, facts["left"]:facts["right"] + 1]
    background = image[1, 1]

    def classed(pixels, reference):
        degrees, chroma = hue(pixels)
        target, _ = hue(reference[None, :])
        distance = np.abs((degrees - target[0] + 180) % 360 - 180)
        return (distance <= 12) & (chroma > 24)

    for name, reference in (("short", short), ("momentary", momentary)):
        mask = classed(inner, reference)
        facts[name + "_columns"] = [bool(v) for v in mask.any(axis=0)]
        facts[name + "_pixels"] = int(mask.sum())
        contrast = np.abs(inner[mask] - background).sum(axis=1)
        facts[name + "_contrast"] = float(np.percentile(contrast, 90)) if len(contrast) else 0.0
    facts["momentary_pixels_image"] = int(classed(image, momentary).sum())
    _, chroma = hue(inner)
    luminance = inner @ np.array([0.2126, 0.7152, 0.0722])
    components, count = ndimage.label((chroma < 25) & (luminance < 150), structure=np.ones((3, 3)))
    glyphs = [(s[1].start, s[0].start, s[1].stop - 1, s[0].stop - 1) for s in ndimage.find_objects(components) if s[0].stop - s[0].start >= 4]
    labels = []
    for glyph in sorted(glyphs):
        for label in labels:
            if glyph[0] - label[2] < 10 and glyph[1] <= label[3] and label[1] <= glyph[3]:
                label[:] = [min(label[0], glyph[0]), min(label[1], glyph[1]), max(label[2], glyph[2]), max(label[3], glyph[3])]
                break
        else:
            labels.append(list(glyph))
    trace = chroma > 24
    facts["labels"] = []
    for x0, y0, x1, y1 in labels:
        if x1 - x0 < 24:
            continue  # a stray grey stroke, not words
        window = trace[max(0, y0 - 1):y1 + 2, max(0, x0 - 1):x1 + 2]
        facts["labels"].append({"box": [x0, y0, x1, y1], "trace_pixels": int(window.sum())})


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
    elif command == "loudness":
        loudness_facts(image, facts, rgb(sys.argv[4]), rgb(sys.argv[5]))
    elif command == "topmost":
        trace = rgb(sys.argv[4])
        close = np.abs(inner - trace).sum(axis=2) < 60
        ys, xs = np.nonzero(close)
        if len(ys):
            first = int(np.argmin(ys))
            facts["x"], facts["y"] = int(xs[first]), int(ys[first])
    print(json.dumps(facts))


main()
