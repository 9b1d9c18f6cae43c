#!/usr/bin/env python3
"""replaygain's benchmarks (issue 43), run by run_bench.py or alone: `replaygain_bench.py SIGNALPATH DATA_DIR`.

On fresh copies of the same files before every run, so every run writes, the commands run in turn
round after round (a load that comes and goes moves them alike), each run's wall and CPU time
(user + system, its children's included) kept:
- an album of 6 × 60 s FLAC tracks (44.1 kHz stereo 16-bit, synthesized music and noise):
  `signalpath replaygain --album --peak true` against `loudgain -a -s i` (whose peaks are true peaks);
- a library of 1 000 short FLAC files (1-3 s, 20 folders of 50): `signalpath replaygain LIBRARY`
  (each folder an album) against loudgain per folder, one after another and under `parallel -j2`;
  stated in files per second.
On 2 cores, loudgain's CPU time over signalpath's, times 2, bounds the album's ratio: loudgain uses
one core.
"""
import os, random, shutil, statistics, subprocess, sys, tempfile, time

import numpy as np
import soundfile as sf

from bench_parts import print_part


def synthesized(seconds, rate, rng):
    frames = int(seconds * rate)
    t = np.arange(frames) / rate
    notes = rng.uniform(80, 900, 4)
    tone = sum(np.sin(2 * np.pi * f * t + rng.uniform(0, 6)) for f in notes) / 4
    envelope = 0.6 + 0.4 * np.sin(2 * np.pi * rng.uniform(0.1, 2) * t)
    x = rng.uniform(0.1, 0.6) * (0.7 * tone * envelope + 0.1 * rng.standard_normal(frames))
    return np.stack([x, np.roll(x, 31)], axis=1).clip(-1, 1)


def make(directory, files, seconds, per_folder, seed):
    if os.path.isdir(directory):
        return
    rng = np.random.default_rng(seed)
    durations = random.Random(seed)
    partial = directory + ".part"
    shutil.rmtree(partial, ignore_errors=True)
    for index in range(files):
        folder = os.path.join(partial, f"album-{index // per_folder:02}")
        os.makedirs(folder, exist_ok=True)
        length = seconds if seconds else durations.uniform(1, 3)
        sf.write(os.path.join(folder, f"track-{index % per_folder:02}.flac"), synthesized(length, 44100, rng), 44100, subtype="PCM_16")
    os.rename(partial, directory)


def run(signalpath, data):
    """Returns (groups, targets) in run_bench.py's shapes."""
    album, library = os.path.join(data, "replaygain-album-6x60s"), os.path.join(data, "replaygain-library-1000")
    make(album, 6, 60, 6, 43)
    make(library, 1000, None, 50, 44)
    work = tempfile.mkdtemp(prefix="signalpath-replaygain-bench-")
    ours, theirs = os.path.join(work, "ours"), os.path.join(work, "theirs")
    # The copy written out before the timed run: its writeback is not either tool's work, and our
    # fsync of each rewritten file would otherwise wait for it.
    fresh = lambda source, target: f"rm -rf {target} && cp -r {source} {target} && sync"
    album_ours, album_theirs = os.path.join(ours, "album-00"), os.path.join(theirs, "album-00")
    album_commands = [
        ("signalpath replaygain --album --peak true, 6 × 60 s FLAC", f"{signalpath} replaygain --album --peak true {album_ours}/*.flac > /dev/null"),
        ("loudgain -a -s i, 6 × 60 s FLAC", f"loudgain -q -a -s i {album_theirs}/*.flac > /dev/null"),
    ]
    results = alternating(album_commands, [fresh(album, ours), fresh(album, theirs)], rounds=5)
    groups = [("replaygain: an album of 6 × 60 s (issue 43)", album_commands, results, None)]
    t = lambda name: results[name]["median"]
    cpu = lambda name: results[name]["cpu"]
    targets = [
        ("replaygain: album of 6 × 60 s ≥ 10× faster than loudgain", t(album_commands[1][0]) / t(album_commands[0][0]), 10, "≥"),
        ("replaygain: album, loudgain's CPU time ÷ signalpath's (10× on 2 cores needs ≥ 5)", cpu(album_commands[1][0]) / cpu(album_commands[0][0]), 5, "≥"),
    ]

    library_commands = [
        ("signalpath replaygain LIBRARY, 1 000 files", f"{signalpath} replaygain {ours} > /dev/null"),
        ("loudgain -a -s i per folder, 1 000 files", f"for d in {theirs}/*/; do loudgain -q -a -s i $d*.flac; done > /dev/null"),
        ("parallel -j2 loudgain -a -s i per folder, 1 000 files",
         f"ls -d {theirs}/*/ | parallel --will-cite -j2 'loudgain -q -a -s i {{}}*.flac' > /dev/null"),
    ]
    library_results = alternating(library_commands, [fresh(library, ours), fresh(library, theirs), fresh(library, theirs)], rounds=3)
    groups.append(("replaygain: a library of 1 000 files of 1–3 s (issue 43)", library_commands, library_results, None))
    for name, _ in library_commands:
        targets.append((f"replaygain: {name}, files/s", 1000 / library_results[name]["median"], 0, "≥ files/s"))
    shutil.rmtree(work, ignore_errors=True)
    return groups, targets


def alternating(commands, prepares, rounds):
    """Each command once a round after its prepare (a fresh copy, not timed), the order turned every
    round: per command the median, min and max of the wall times and the median CPU time."""
    times = {name: [] for name, _ in commands}
    pairs = list(zip(commands, prepares))
    for round_index in range(rounds):
        for (name, command), prepare in pairs[round_index % len(pairs):] + pairs[:round_index % len(pairs)]:
            subprocess.run(prepare, shell=True, check=True)
            started = time.perf_counter()
            process = subprocess.Popen(command, shell=True)
            _, status, usage = os.wait4(process.pid, 0)
            wall = time.perf_counter() - started
            if status != 0:
                raise SystemExit(f"{name}: exit status {status}")
            times[name].append((wall, usage.ru_utime + usage.ru_stime))
    return {
        name: {"median": statistics.median(w for w, _ in runs), "min": min(w for w, _ in runs), "max": max(w for w, _ in runs),
               "cpu": statistics.median(c for _, c in runs)}
        for name, runs in times.items()
    }


if __name__ == "__main__":
    print_part(*run(sys.argv[1], sys.argv[2]))
