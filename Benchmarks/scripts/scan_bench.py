#!/usr/bin/env python3
"""scan's benchmarks (issue 16), run by run_bench.py or alone: `scan_bench.py SIGNALPATH DATA_DIR`.

- 500 generated files of 1-10 s (44.1/48 kHz stereo 16-bit, WAV and FLAC written by libsndfile):
  one `signalpath scan` into a new database against `parallel -j2 ffmpeg -af ebur128=peak=true`
  and `parallel -j2 signalpath analyze` (a process per file), in one hyperfine run;
- a re-scan of 10 000 unchanged entries (symbolic links to one short file, scanned once with
  --content-hash, so 9 999 are recognised rather than analysed), per 10 000 files;
- peak RSS of a first scan of a 100 000-entry --files-from list (links again).
"""
import os, random, subprocess, sys, tempfile

import numpy as np
import soundfile as sf

from bench_parts import hyperfine, print_part


def make_archive(directory, count=500, seed=16):
    if os.path.isdir(directory):
        return
    rng = random.Random(seed)
    noise = np.random.default_rng(seed)
    partial = directory + ".part"
    for index in range(count):
        folder = os.path.join(partial, f"disc-{index // 50:02}")
        os.makedirs(folder, exist_ok=True)
        rate = rng.choice([44100, 48000])
        frames = int(rate * rng.uniform(1, 10))
        t = np.arange(frames) / rate
        x = 0.3 * np.sin(2 * np.pi * rng.uniform(50, 5000) * t) + noise.normal(0, 0.05, frames)
        stereo = np.stack([x, np.roll(x, 17)], axis=1).clip(-1, 1)
        kind = "flac" if index % 10 < 3 else "wav"
        sf.write(os.path.join(folder, f"track-{index:03}.{kind}"), stereo, rate, subtype="PCM_16")
    os.rename(partial, directory)


def make_links(directory, count, target):
    """`count` symbolic links to `target`, 1 000 per folder; returns the list file."""
    listing = directory + ".list"
    if not os.path.isdir(directory):
        partial = directory + ".part"
        paths = []
        for index in range(count):
            folder = os.path.join(partial, f"{index // 1000:03}")
            if index % 1000 == 0:
                os.makedirs(folder, exist_ok=True)
            os.symlink(target, os.path.join(folder, f"link-{index:06}.wav"))
            paths.append(os.path.join(directory, f"{index // 1000:03}", f"link-{index:06}.wav"))
        os.rename(partial, directory)
        with open(listing, "w") as out:
            out.write("\n".join(paths) + "\n")
    return listing


def peak_rss_mb(command):
    run = subprocess.run(["/usr/bin/time", "-f", "%M", "sh", "-c", command], capture_output=True, text=True)
    return int(run.stderr.strip().splitlines()[-1]) / 1024


def run(signalpath, data):
    """Returns (groups, targets) in run_bench.py's shapes."""
    archive = os.path.join(data, "scan-500")
    make_archive(archive)
    work = tempfile.mkdtemp(prefix="signalpath-scan-bench-")
    database = os.path.join(work, "archive.db")
    files = f"find {archive} -type f"
    commands = [
        # The database is removed first, so every run (and the peak-RSS run) scans all 500.
        ("signalpath scan, 500 files (new database)", f"rm -f {database}*; {signalpath} scan {archive} --db {database} --jobs 2 --format json > /dev/null"),
        ("parallel -j2 ffmpeg ebur128=peak=true, 500 files",
         f"{files} | parallel --will-cite -j2 ffmpeg -nostats -hide_banner -i {{}} -af ebur128=peak=true -f null - 2>/dev/null"),
        ("parallel -j2 signalpath analyze, 500 files", f"{files} | parallel --will-cite -j2 {signalpath} analyze {{}} --format json > /dev/null"),
    ]
    results = hyperfine(commands, runs=3)
    groups = [("scan: 500 files of 1–10 s (issue 16)", commands, results, None)]
    print({name: round(result["median"], 3) for name, result in results.items()}, file=sys.stderr)
    t = lambda name: results[name]["median"]
    targets = [
        ("scan of 500 files ≥ 10× faster than parallel -j2 ffmpeg ebur128",
         t("parallel -j2 ffmpeg ebur128=peak=true, 500 files") / t("signalpath scan, 500 files (new database)"), 10, "≥"),
        ("scan of 500 files ≥ 3× faster than parallel -j2 signalpath analyze",
         t("parallel -j2 signalpath analyze, 500 files") / t("signalpath scan, 500 files (new database)"), 3, "≥"),
    ]

    # Re-scan of 10 000 unchanged entries.
    # The links point to one 0.1 s file: what is measured is the per-entry work (walk, stat,
    # lookup; in the first scan the hash and the recognition), not reading audio.
    short = os.path.abspath(os.path.join(data, "scan-short-0.1s.wav"))
    if not os.path.exists(short):
        sf.write(short, np.zeros((4410, 2)), 44100, subtype="PCM_16")
    links10k = os.path.join(data, "scan-links-10k")
    make_links(links10k, 10_000, short)
    rescan_db = os.path.join(work, "links.db")
    subprocess.run(f"{signalpath} scan {links10k} --db {rescan_db} --content-hash > /dev/null 2>&1", shell=True, check=True)
    rescan = [("signalpath scan, 10 000 unchanged entries (re-scan)", f"{signalpath} scan {links10k} --db {rescan_db} --content-hash > /dev/null")]
    rescan_results = hyperfine(rescan, runs=5)
    print({name: round(result["median"], 3) for name, result in rescan_results.items()}, file=sys.stderr)
    groups.append(("scan: re-scan of an unchanged tree (issue 16)", rescan, rescan_results, None))
    targets.append(("re-scan of 10 000 unchanged files < 1 s", rescan_results[rescan[0][0]]["median"], 1, "≤ s"))

    # Peak RSS over a 100 000-entry list (first scan: one analysis, 99 999 recognised by content).
    links100k = os.path.join(data, "scan-links-100k")
    listing = make_links(links100k, 100_000, short)
    big_db = os.path.join(work, "big.db")
    rss = peak_rss_mb(f"{signalpath} scan --files-from {listing} --db {big_db} --content-hash > /dev/null")
    targets.append(("peak RSS of a first scan of a 100 000-entry list", rss, 60, "≤ MB"))
    return groups, targets


if __name__ == "__main__":
    print_part(*run(sys.argv[1], sys.argv[2]))
