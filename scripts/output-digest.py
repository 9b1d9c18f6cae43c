#!/usr/bin/env python3
"""Prints the MD5 of every command's output on the bundled samples, one line per run.

A refactoring that must not change behaviour is checked by running this before and after and
comparing the two listings (`diff`): every command (info, analyze, loudness, check, events,
spectrum, spectrogram, waveform, compare, scan with export) in each of its formats on Samples/, pictures
(PNG, SVG, PDF) of three of them, and the chunked passes on a generated 12 s stereo file long enough for three of analyze's chunks
(clipping, silence, DC and a dropout planted, numpy's seeded generator). With --bench DIR, the
bench's 10-minute FLAC and M4A too (Benchmarks/Data, made by `make bench-data`).

Each line is `md5  exit-code  command`; the exit code and standard error's MD5 are part of it.
What is normalised, because it is not the program's result: the PDF's /CreationDate (Cairo
writes the time), scan's elapsed seconds and commit count (its writer batches rows as they queue
up), the rows' analysis times and modification times (export; the samples' are those of the
checkout), and the temporary directory's path where scan and export print it. So listings from
different checkouts compare. PNG and
SVG carry no date and are hashed as written.

    scripts/output-digest.py [--binary .build/debug/signalpath] [--bench Benchmarks/Data] [--only REGEX] > digest.txt
"""
import argparse, hashlib, os, pathlib, re, shlex, shutil, subprocess, sys, tempfile

root = pathlib.Path(__file__).resolve().parent.parent


def make_long_file(path):
    import numpy as np, soundfile
    rate, seconds = 48000, 12
    rng = np.random.default_rng(40)
    t = np.arange(rate * seconds) / rate
    left = 0.3 * np.sin(2 * np.pi * 997 * t) + 0.05 * rng.standard_normal(t.size)
    right = 0.25 * np.sin(2 * np.pi * 441 * t + 0.3) + 0.05 * rng.standard_normal(t.size)
    left[int(5.3 * rate):int(5.4 * rate)] *= 6  # clipped stretch, across the second chunk's start
    right[int(2 * rate):int(4 * rate)] = 0  # silence on one channel
    left[int(7 * rate):int(8.5 * rate)] += 0.2  # DC span
    both = np.stack([left, right], axis=1)
    both[int(9 * rate):int(9.02 * rate)] = 0  # dropout
    both[int(10.5 * rate):] *= 0.1  # loudness jump
    soundfile.write(path, np.clip(both, -1, 1), rate, subtype="PCM_16")
    os.utime(path, (1_700_000_000, 1_700_000_000))  # scan stores the modification time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(root / ".build/debug/signalpath"))
    parser.add_argument("--only", help="run only the commands whose line matches this regular expression")
    parser.add_argument("--bench", help="directory of the bench's data (long-10min-s24.flac, long-10min-aac.m4a)")
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.binary)
    arguments_only = arguments.only

    work = pathlib.Path(tempfile.mkdtemp(prefix="signalpath-digest-"))
    samples = sorted(p for p in (root / "Samples").iterdir() if p.suffix in {".wav", ".rf64", ".flac", ".ogg", ".opus"})
    long_file = work / "long-12s-events-48k-s16.wav"
    make_long_file(long_file)
    files = samples + [long_file]
    if arguments.bench:
        bench = pathlib.Path(arguments.bench)
        files += [bench / "long-10min-s24.flac", bench / "long-10min-aac.m4a"]

    environment = dict(os.environ, LC_ALL="C.UTF-8", COLUMNS="100", LINES="30", NO_COLOR="")
    environment.pop("NO_COLOR")

    def run(label, arguments, output=None, locale=None):
        if arguments_only and not re.search(arguments_only, label):
            return
        command = [binary] + [str(a) for a in arguments]
        done = subprocess.run(command, capture_output=True, env=dict(environment, LC_ALL=locale or environment["LC_ALL"]), cwd=work)
        data = pathlib.Path(output).read_bytes() if output else done.stdout
        if output:
            pathlib.Path(output).unlink(missing_ok=True)
            data += b"\0stdout\0" + done.stdout
        data = data.replace(str(work).encode(), b"$WORK").replace(str(root).encode(), b"$ROOT")
        data = re.sub(rb"/CreationDate \([^)]*\)", b"/CreationDate ()", data)
        data = re.sub(rb'"seconds": [0-9.]+', b'"seconds": 0', data)  # scan's elapsed time
        data = re.sub(rb"(Scanned into [^\n]*) in [^\n]*", rb"\1 in TIME", data)  # the same, in its text
        data = re.sub(rb'"commits": [0-9]+', b'"commits": 0', data)  # the writer batches rows as they queue up
        data = re.sub(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", b"TIME", data)  # rows' analyzed_at
        data = re.sub(rb"\b1\d{18}\b", b"MTIME", data)  # rows' mtime_ns: when the checkout wrote Samples/
        stderr = done.stderr.replace(str(work).encode(), b"$WORK").replace(str(root).encode(), b"$ROOT")
        digest = hashlib.md5(data).hexdigest()
        print(f"{digest}  {done.returncode:3}  err:{hashlib.md5(stderr).hexdigest()[:8]}  {label}", flush=True)

    charted = {"sine-1k-48k-s16-mono.wav", "chord-a-major-44k1-stereo.ogg", "chirp-log-20-20k-48k-s24.flac"}
    for f in files:
        n = f.name
        every = f.parent != work  # the long file: the passes that merge chunks, in one format each
        for fmt in ["text", "json", "csv"] if every else []:
            run(f"info {n} --format {fmt}", ["info", f, "--format", fmt])
        for fmt in ["text", "json", "csv", "tsv", "ndjson"] if every else ["text", "json"]:
            run(f"analyze {n} --format {fmt}", ["analyze", f, "--format", fmt])
        run(f"analyze {n} --true-peak accurate --format json", ["analyze", f, "--true-peak", "accurate", "--format", "json"])
        if every:
            run(f"analyze {n} --range 0.25s..1.75s --format json", ["analyze", f, "--range", "0.25s..1.75s", "--format", "json"])
        for fmt in ["csv", "json"] if every else ["csv"]:
            run(f"loudness {n} --format {fmt}", ["loudness", f, "--format", fmt])
        if every:
            run(f"loudness {n} --format plot --width 80 --height 20", ["loudness", f, "--format", "plot", "--width", "80", "--height", "20"])
        for profile in ["ebu-r128", "podcast"] if every else ["podcast"]:
            for fmt in ["text", "json", "csv"] if every else ["json"]:
                run(f"check {n} --profile {profile} --format {fmt}", ["check", f, "--profile", profile, "--format", fmt])
        run(f"check {n} --max-clipped 0 --max-silence 1s --max-dc 1 --require-lossless-origin --format json",
            ["check", f, "--profile", "ebu-r128", "--max-clipped", "0", "--max-silence", "1s", "--max-dc", "1",
             "--require-lossless-origin", "--format", "json"])
        for fmt in ["text", "json", "csv"] if every else ["json"]:
            run(f"events {n} --format {fmt}", ["events", f, "--format", fmt])
        run(f"events {n} --min-silence 100ms --max-jump 3 --format json", ["events", f, "--min-silence", "100ms", "--max-jump", "3", "--format", "json"])
        for fmt in ["csv", "json"] if every else ["json"]:
            run(f"spectrum {n} --format {fmt}", ["spectrum", f, "--format", fmt])
        run(f"spectrum {n} --bands 1/3 --weighting A --peaks 5 --format json", ["spectrum", f, "--bands", "1/3", "--weighting", "A", "--peaks", "5", "--format", "json"])
        if every:
            run(f"spectrum {n} --format plot", ["spectrum", f, "--format", "plot", "--width", "80", "--height", "20"])
        for fmt in ["csv", "json"] if every else ["csv"]:
            run(f"spectrogram {n} --format {fmt}", ["spectrogram", f, "--format", fmt, "--fft-size", "1024"])
        if every:
            run(f"spectrogram {n} --format plot", ["spectrogram", f, "--format", "plot", "--width", "80", "--height", "20"])
        for fmt in ["csv", "json"] if every else ["csv"]:
            run(f"waveform {n} --format {fmt}", ["waveform", f, "--format", fmt, "--columns", "200"])
        if every:
            run(f"waveform {n} --format plot", ["waveform", f, "--format", "plot", "--width", "80", "--height", "20"])
        for command in ["spectrum", "spectrogram", "waveform", "loudness"] if n in charted else []:
            for ext in ["png", "svg", "pdf"]:
                out = work / f"chart.{ext}"
                run(f"{command} {n} --output chart.{ext}", [command, f, "--size", "480x270", "--output", out, "--force"], output=out)
    # Several files in one call, and scan's database through export.
    run("analyze Samples/* --format json", ["analyze"] + samples + ["--format", "json"])
    run("check Samples/* --format text", ["check"] + samples + ["--profile", "ebu-r128", "--format", "text"])
    for fmt in ["text", "csv", "ndjson"]:
        run(f"info Samples/* --format {fmt}", ["info"] + samples + ["--format", fmt])
    run("analyze Samples/* --format csv", ["analyze"] + samples + ["--format", "csv"])
    for fmt in ["text", "csv", "tsv", "ndjson"]:
        run(f"spectrum Samples/* --format {fmt}", ["spectrum"] + samples + ["--format", fmt])
    run("spectrum Samples/* --peaks 3 --format csv", ["spectrum"] + samples + ["--peaks", "3", "--format", "csv"])
    run("waveform Samples/* --format csv", ["waveform"] + samples + ["--format", "csv", "--columns", "50"])
    # The streaming commands over several files, one of them missing: one header, separators, failure entries.
    few = [root / "Samples" / n for n in ["sine-1k-48k-s16-mono.wav", "tone-step-500-1k-48k-s16.wav"]] + [work / "missing.wav"]
    for fmt in ["csv", "tsv", "json", "ndjson"]:
        run(f"loudness few --format {fmt}", ["loudness"] + few + ["--format", fmt])
    for fmt in ["text", "csv", "tsv", "json", "ndjson"]:
        run(f"events few --format {fmt}", ["events"] + few + ["--format", fmt])
    for fmt in ["csv", "tsv", "json", "ndjson"]:
        run(f"spectrogram few --format {fmt}", ["spectrogram"] + few + ["--format", fmt, "--fft-size", "256", "--overlap", "0"])
    # check over several files: passes, failures, a missing and an unreadable file among them (the
    # counts, the closing line, NDJSON's last line, the exit code); ASCII marks without UTF-8.
    broken = work / "broken.wav"
    broken.write_bytes(b"RIFF\x24\x00\x00\x00WAVEnot audio at all")
    mixed = few[:2] + [broken] + [root / "Samples" / "chord-a-major-44k1-stereo.ogg"] + few[2:]
    for fmt in ["text", "csv", "tsv", "json", "ndjson"]:
        run(f"check mixed --format {fmt}", ["check"] + mixed + ["--target-lufs", "-10", "--tolerance", "1", "--format", fmt])
    run("check mixed --format text (ASCII)", ["check"] + mixed + ["--target-lufs", "-10", "--tolerance", "1", "--format", "text"], locale="C")
    run("check mixed --jobs 1 --format ndjson", ["check"] + mixed + ["--profile", "podcast", "--jobs", "1", "--format", "ndjson"])
    run("check failing --format text", ["check"] + few[:1] + mixed[3:4] + ["--target-lufs", "-10", "--tolerance", "1"])
    run("check unreadable --format text", ["check", broken] + few[2:] + ["--profile", "ebu-r128"])
    run("check broken alone --format json", ["check", broken, "--profile", "ebu-r128", "--format", "json"])
    # compare: a file with itself (bit-identical), with its RF64 twin, and a pair that differs.
    sine, twin, step = (root / "Samples" / n for n in ["sine-1k-48k-s16-mono.wav", "sine-1k-48k-s16-mono.rf64", "tone-step-500-1k-48k-s16.wav"])
    for fmt in ["text", "json", "csv", "ndjson"]:
        run(f"compare sine twin --format {fmt}", ["compare", sine, twin, "--format", fmt])
        run(f"compare sine step --format {fmt}", ["compare", sine, step, "--max-residual", "-50", "--format", fmt])
    for ext in ["png", "svg", "pdf"]:
        out = work / f"diff.{ext}"
        run(f"compare sine step --output diff.{ext}", ["compare", sine, step, "--output", out, "--force"], output=out)
    pairs = work / "pairs.tsv"
    pairs.write_text(f"{sine}\t{twin}\n{sine}\t{step}\n{sine}\t{work / 'missing.wav'}\n")
    for fmt in ["text", "json", "csv"]:
        run(f"compare --pairs pairs.tsv --format {fmt}", ["compare", "--pairs", pairs, "--format", fmt])
    tree = work / "tree"
    tree.mkdir()
    for f in samples:
        os.symlink(f, tree / f.name)
    db = work / "scan.db"
    run("scan tree --profile podcast --events --format json", ["scan", tree, "--db", db, "--profile", "podcast", "--events", "--format", "json", "--jobs", "1"])
    for fmt in ["csv", "json", "ndjson"]:
        run(f"export scan.db --format {fmt}", ["export", db, "--format", fmt])
    run("export scan.db --failed --format json", ["export", db, "--failed", "--format", "json"])
    # The whole-database reports: scan's text summary, scan --duplicates and duplicates, over a tree
    # with a copy of one file (equal content) and a WAV beside its RF64 twin (equal audio).
    shutil.copyfile(sine, tree / "copy-of-sine.wav")
    os.utime(tree / "copy-of-sine.wav", (1_700_000_000, 1_700_000_000))
    identity = work / "identity.db"
    run("scan tree --content-hash --md5 --fingerprint --format text",
        ["scan", tree, "--db", identity, "--content-hash", "--md5", "--fingerprint", "--jobs", "1"])
    for fmt in ["text", "json"]:
        run(f"scan --duplicates --format {fmt}", ["scan", "--db", identity, "--duplicates", "--format", fmt])
        run(f"duplicates identity.db --format {fmt}", ["duplicates", identity, "--format", fmt])


if __name__ == "__main__":
    main()
