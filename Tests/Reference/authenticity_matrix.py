#!/usr/bin/env python3
"""Confusion matrix of signalpath's authenticity verdicts over a corpus of authenticity_corpus.py.

    authenticity_matrix.py CORPUS_DIR SIGNALPATH [--jobs N] [--markdown]

The truth comes from the corpus manifest (how each file was made), the verdicts from
`signalpath analyze --format json`. Prints JSON (default) or Markdown tables for BENCHMARKS.md
and docs/AUTHENTICITY.md. Rates follow issue 19's rules:

- transcodes: share called lossy_origin, the hard cases (320 kbps MP3, V0, AAC >= 192k,
  Vorbis q >= 6, Opus >= 128k) apart from the rest;
- genuine full-band files: share called lossy_origin or upsampled;
- genuine band-limited files: share called lossy_origin;
- upsampled files: share called upsampled with the right source rate.

Files at 22.05 and 32 kHz have rows of their own (issue 38): there coders keep the whole band at
ordinary bit rates, so no transcode may pass as lossless_origin, and a genuine file without positive
evidence is inconclusive.
"""
import argparse
import json
import os
import subprocess
import sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor

VERDICTS = ["lossless_origin", "lossy_origin", "upsampled", "inconclusive"]
LOW_RATES = (22050, 32000)
LOW = " (22.05/32 kHz)"
ROWS = ["lossless_origin", "band_limited", "lossy_origin", "lossy_origin (hard)", "upsampled",
        "lossless_origin" + LOW, "band_limited" + LOW, "lossy_origin" + LOW]


def analyse(signalpath, paths):
    """signalpath's authenticity object per path (None for a failed file)."""
    result = subprocess.run([signalpath, "analyze", "--format", "json", "--jobs", "1", *paths], capture_output=True, text=True)
    document = json.loads(result.stdout)
    found = {}
    for entry in document["files"]:
        found[entry["path"]] = entry.get("authenticity")
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus")
    parser.add_argument("signalpath")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    with open(os.path.join(args.corpus, "manifest.json")) as handle:
        manifest = json.load(handle)
    paths = [os.path.join(args.corpus, item["file"]) for item in manifest]
    # One process per slice: each analyses its files in order with one worker.
    slices = [paths[index :: args.jobs] for index in range(args.jobs)]
    found = {}
    with ThreadPoolExecutor(args.jobs) as pool:
        for part in pool.map(lambda part: analyse(args.signalpath, part), [s for s in slices if s]):
            found.update(part)

    matrix = defaultdict(Counter)
    hard = Counter()
    hard_total = 0
    by_setting = defaultdict(Counter)
    upsample_right = 0
    padded_right = 0
    padded_total = 0
    mono_right = 0
    mono_total = 0
    misses = []
    # Issue 19 names only 320 kbps MP3 and high-bitrate AAC as the hard cases.
    worded = Counter()
    by_resampler = defaultdict(Counter)
    hinted = hint_right = 0
    for item, path in zip(manifest, paths):
        authenticity = found.get(path)
        verdict = authenticity["verdict"] if authenticity else "failed"
        truth = item["truth"]
        is_hard = truth == "lossy_origin" and item.get("hard", False)
        low = truth != "upsampled" and item["sample_rate"] in LOW_RATES
        row = truth + LOW if low else "lossy_origin (hard)" if is_hard else truth
        matrix[row][verdict] += 1
        if truth == "lossy_origin" and not low and not (
            (item["codec"] == "mp3" and item["setting"] == "cbr320") or (item["codec"] == "aac" and item["setting"] in ("192k", "256k"))
        ):
            worded[verdict == "lossy_origin"] += 1
        if truth == "lossy_origin":
            at = f' at {item["sample_rate"] / 1000:g} kHz' if low else ""
            by_setting[f'{item["codec"]} {item["setting"]}{at}'][verdict] += 1
            if verdict == "lossy_origin":
                hinted += 1
                hint_right += bool(authenticity.get("codec_hint") and item["codec"] in authenticity["codec_hint"])
        if truth == "upsampled":
            by_resampler[f'{item["setting"]}, {item["source"]}'][verdict] += 1
        if truth == "upsampled" and verdict == "upsampled" and authenticity.get("source_rate_hz") == item["source_rate"]:
            upsample_right += 1
        if item.get("bit_depth_padded"):
            padded_total += 1
            padded_right += bool(authenticity and authenticity.get("bit_depth_padded"))
        if item.get("mono_as_stereo"):
            mono_total += 1
            mono_right += bool(authenticity and authenticity.get("mono_as_stereo"))
        wrong = (
            (truth == "lossy_origin" and verdict != "lossy_origin")
            or (truth == "lossless_origin" and verdict in ("lossy_origin", "upsampled"))
            or (truth == "band_limited" and verdict == "lossy_origin")
            or (truth == "band_limited" and low and verdict == "upsampled")
            or (truth == "upsampled" and verdict != "upsampled")
        )
        if wrong:
            misses.append({"file": item["file"], "truth": row, "verdict": verdict, "evidence": authenticity and authenticity.get("evidence")})

    def share(row, verdicts):
        total = sum(matrix[row].values())
        return None if total == 0 else sum(matrix[row][v] for v in verdicts) / total

    def share_of(rows, verdicts):
        total = sum(sum(matrix[row].values()) for row in rows)
        return None if total == 0 else sum(matrix[row][v] for row in rows for v in verdicts) / total

    upsampled_total = sum(matrix["upsampled"].values())
    summary = {
        "files": len(manifest),
        "matrix": {row: dict(counts) for row, counts in matrix.items()},
        "transcodes_called_lossy": share("lossy_origin", ["lossy_origin"]),
        "hard_transcodes_called_lossy": share("lossy_origin (hard)", ["lossy_origin"]),
        "transcodes_called_lossy_only_320k_mp3_and_aac_from_192k_apart": None if not worded else worded[True] / sum(worded.values()),
        "full_band_called_lossy_or_upsampled": share("lossless_origin", ["lossy_origin", "upsampled"]),
        "band_limited_called_lossy": share("band_limited", ["lossy_origin"]),
        "upsampled_with_right_rate": None if upsampled_total == 0 else upsample_right / upsampled_total,
        "low_rate_transcodes_called_lossless": share("lossy_origin" + LOW, ["lossless_origin"]),
        "low_rate_transcodes_called_lossy": share("lossy_origin" + LOW, ["lossy_origin"]),
        "low_rate_genuine_called_lossy_or_upsampled": share_of(["lossless_origin" + LOW, "band_limited" + LOW], ["lossy_origin", "upsampled"]),
        "genuine_called_inconclusive": {row: matrix[row]["inconclusive"] for row in ROWS if row.split(" ")[0] in ("lossless_origin", "band_limited") and matrix[row]},
        "padded_flagged": None if padded_total == 0 else padded_right / padded_total,
        "mono_as_stereo_flagged": None if mono_total == 0 else mono_right / mono_total,
        "codec_hint_names_the_codec": None if hinted == 0 else hint_right / hinted,
        "by_resampler": {key: dict(counts) for key, counts in sorted(by_resampler.items())},
        "by_setting": {setting: dict(counts) for setting, counts in sorted(by_setting.items())},
        "misses": misses,
    }
    if not args.markdown:
        json.dump(summary, sys.stdout, indent=1)
        print()
        return
    print("| truth \\ verdict | " + " | ".join(VERDICTS) + " | files |")
    print("|---|" + "---|" * (len(VERDICTS) + 1))
    for row in ROWS:
        counts = matrix.get(row, Counter())
        print(f"| {row} | " + " | ".join(str(counts.get(v, 0)) for v in VERDICTS) + f" | {sum(counts.values())} |")
    print()

    def percent(value):
        return "–" if value is None else f"{100 * value:.1f} %"

    print("| rate | measured | limit |")
    print("|---|---|---|")
    print(f"| transcodes called lossy_origin (hard cases apart) | {percent(summary['transcodes_called_lossy'])} | >= 95 % |")
    print(f"| hard transcodes called lossy_origin | {percent(summary['hard_transcodes_called_lossy'])} | reported |")
    print(f"| transcodes called lossy_origin, only 320 kbps MP3 and AAC from 192 kbps apart (issue 19's words) | "
          f"{percent(summary['transcodes_called_lossy_only_320k_mp3_and_aac_from_192k_apart'])} | >= 95 % |")
    print(f"| genuine full-band called lossy_origin or upsampled | {percent(summary['full_band_called_lossy_or_upsampled'])} | <= 2 % |")
    print(f"| genuine band-limited called lossy_origin | {percent(summary['band_limited_called_lossy'])} | <= 5 % |")
    print(f"| upsampled called upsampled from the right rate | {percent(summary['upsampled_with_right_rate'])} | >= 80 % in make test (16-bit sweeps and FFmpeg's default resampler are the misses) |")
    print(f"| 16-bit in 24 flagged bit_depth_padded | {percent(summary['padded_flagged'])} | 100 % |")
    print(f"| mono copied to both channels flagged mono_as_stereo | {percent(summary['mono_as_stereo_flagged'])} | 100 % |")
    print(f"| codec_hint names the codec (transcodes called lossy_origin) | {percent(summary['codec_hint_names_the_codec'])} | reported |")
    print(f"| transcodes at 22.05/32 kHz called lossless_origin | {percent(summary['low_rate_transcodes_called_lossless'])} | 0 % |")
    print(f"| transcodes at 22.05/32 kHz called lossy_origin | {percent(summary['low_rate_transcodes_called_lossy'])} | reported |")
    print(f"| genuine files at 22.05/32 kHz called lossy_origin or upsampled | {percent(summary['low_rate_genuine_called_lossy_or_upsampled'])} | 0 % |")
    print()
    print("| codec setting | " + " | ".join(VERDICTS) + " |")
    print("|---|" + "---|" * len(VERDICTS))
    for setting, counts in sorted(by_setting.items()):
        print(f"| {setting} | " + " | ".join(str(counts.get(v, 0)) for v in VERDICTS) + " |")
    print()
    print("| upsample: resampler, source | " + " | ".join(VERDICTS) + " |")
    print("|---|" + "---|" * len(VERDICTS))
    for key, counts in sorted(by_resampler.items()):
        print(f"| {key} | " + " | ".join(str(counts.get(v, 0)) for v in VERDICTS) + " |")


if __name__ == "__main__":
    main()
