#!/usr/bin/env python3
"""Makes real material at known loudness, and clipped material with its clipping counted, for `check`.

    python3 Tests/Reference/check_material.py OUTDIR

Speech from espeak-ng and music rendered by fluidsynth (a seeded MIDI piece, FluidR3_GM.sf2) are
brought to each target loudness by one sox gain (loudness moves by the gain exactly): the gain is
the target minus ffmpeg's ebur128 reading, and ffmpeg reads the result again. A clipped file is the
music with sox `gain 12` into 16-bit; numpy counts its clipping by the documented rule. Prints
JSON: {"files": {name: {"path", "channels", "ffmpeg_lufs"}}, "clipped": {"path", "samples",
"events", "runs"}}. CheckCLITests runs `signalpath check` on the files and compares.
"""
import json, os, re, subprocess, sys
import numpy as np
import soundfile as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from band_score import render_band

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def run(arguments):
    subprocess.run(arguments, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def path(name):
    return os.path.join(out, name)


def ffmpeg_lufs(file):
    """ebur128's integrated loudness with three decimals (its frame metadata; the summary has one)."""
    result = subprocess.run(
        ["ffmpeg", "-hide_banner", "-nostats", "-i", file, "-af",
         "ebur128=metadata=1,ametadata=mode=print:key=lavfi.r128.I:file=-", "-f", "null", "-"],
        check=True, capture_output=True, text=True)
    return float(re.findall(r"lavfi\.r128\.I=(-?[0-9.]+)", result.stdout)[-1])


def speech():
    raw = path("speech-raw.wav")
    run(["espeak-ng", "-w", raw,
         "A delivery check asks whether a programme meets its loudness target and its true peak limit. "
         "This sentence runs on for more than ten seconds, so that the gated loudness has blocks to work on, "
         "with pauses between the phrases."])
    return raw


def music():
    """Eight bars of chords, bass and a melody, rendered as float WAV."""
    return render_band(out, [57, 53, 48, 55, 57, 53, 50, 52], 112, np.random.default_rng(38))


# A podcast's speech is compressed: espeak-ng's peaks stand 19 dB above its loudness, and sox
# clips at full scale even in float files, so mono at -19 LUFS would clip without it.
PODCAST_COMPRESSION = ["gain", "-n", "-12", "compand", "0.002,0.05", "-90,-90,-50,-25,-20,-14,0,-10", "0", "-90", "0.005"]


def at_loudness(source, name, target, channels, rate, effects=()):
    """`source` as float WAV of `channels` channels at `rate` (through sox `effects`), at `target`
    LUFS by ffmpeg."""
    base = path(name + "-base.wav")
    run(["sox", source, "-r", str(rate), "-c", str(channels), "-e", "floating-point", base, *effects, "gain", "-n", "-20"])
    gain = target - ffmpeg_lufs(base)
    file = path(name + ".wav")
    run(["sox", base, file, "gain", "%.4f" % gain])
    return {"path": file, "channels": channels, "ffmpeg_lufs": ffmpeg_lufs(file)}


def clipping(file):
    """Clipped samples and events by the documented rule: per channel, runs of at least 3 samples
    at full scale (|code| >= 32767 in 16-bit), runs starting less than 10 ms after the previous
    one ended belonging to its event; summed over the channels."""
    codes, rate = sf.read(file, dtype="int16", always_2d=True)
    gap = int(round(0.010 * rate))
    samples = events = runs = 0
    for channel in codes.T:
        full = np.concatenate(([False], np.abs(channel.astype(np.int32)) >= 32767, [False]))
        edges = np.flatnonzero(np.diff(full.astype(np.int8)))
        starts, ends = edges[0::2], edges[1::2]
        keep = ends - starts >= 3
        starts, ends = starts[keep], ends[keep]
        samples += int(np.sum(ends - starts))
        runs += len(starts)
        if len(starts):
            events += 1 + int(np.sum(starts[1:] - ends[:-1] >= gap))
    return {"path": file, "samples": samples, "events": events, "runs": runs}


spoken, played = speech(), music()
files = {}
for material, source in (("speech", spoken), ("music", played)):
    for target in (-23.35, -23.1):
        files["%s%s" % (material, target)] = at_loudness(source, "%s%s" % (material, target), target, 2, 48000)
for name, target, channels in (("speech-mono-19", -19, 1), ("speech-stereo-19", -19, 2), ("speech-mono-16.5", -16.5, 1)):
    files[name] = at_loudness(spoken, name, target, channels, 44100, PODCAST_COMPRESSION)
clipped = path("music-clipped.wav")
# -R: sox's dither repeatable, so the file is the same on every run.
run(["sox", "-R", played, "-b", "16", clipped, "gain", "-n", "-1", "gain", "12"])
print(json.dumps({"files": files, "clipped": clipping(clipped)}))
