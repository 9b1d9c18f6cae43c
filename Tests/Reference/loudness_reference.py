#!/usr/bin/env python3
"""Makes varied material and measures its integrated loudness with pyloudnorm and ffmpeg's ebur128.

    python3 Tests/Reference/loudness_reference.py OUTDIR

writes OUTDIR/*.wav and OUTDIR/reference.json: a list of {file, seconds, pyloudnorm_lufs,
ffmpeg_lufs} (ffmpeg only for material of 10 s or more: it treats the blocks at the ends of
short files differently). The Swift test LoudnessReferenceTests compares signalpath with both.
Material: speech from espeak-ng, white and pink noise, tones, and synthesized music-like mixes
with quiet passages (so that gating matters), at 22.05, 44.1 and 48 kHz, mono and stereo.
"""
import json, os, re, subprocess, sys
import numpy as np
import soundfile as sf
import pyloudnorm

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(2026)
material = {}

def db(level):
    return 10 ** (level / 20)

def pink(n):
    spectrum = np.fft.rfft(rng.standard_normal(n))
    f = np.arange(len(spectrum)); f[0] = 1
    x = np.fft.irfft(spectrum / np.sqrt(f), n)
    return x / np.max(np.abs(x))

def envelope(n, rate, attack=0.01, release=0.3):
    t = np.arange(n) / rate
    return np.minimum(1, t / attack) * np.exp(-t / release)

def music(seconds, rate, seed_shift):
    """Chords, a bass line, noise-burst drums; a quiet bridge in the middle."""
    n = int(seconds * rate)
    left, right = np.zeros(n), np.zeros(n)
    beat = int(0.5 * rate)
    notes = [220.0, 277.18, 329.63, 440.0, 164.81, 196.0, 246.94]
    for i, start in enumerate(range(0, n - beat, beat)):
        length = min(n - start, 2 * beat)
        t = np.arange(length) / rate
        gain = 0.15 if (n // 3 < start < n // 2) else 1.0
        for k, f in enumerate(notes[(i + seed_shift) % 4:(i + seed_shift) % 4 + 3]):
            tone = np.sin(2 * np.pi * f * t) + 0.3 * np.sin(4 * np.pi * f * t)
            pan = (k + 1) / 4
            left[start:start + length] += gain * 0.12 * (1 - pan) * tone * envelope(length, rate, release=0.6)
            right[start:start + length] += gain * 0.12 * pan * tone * envelope(length, rate, release=0.6)
        bass = np.sin(2 * np.pi * notes[4 + i % 3] / 2 * t) * envelope(length, rate, release=0.4)
        left[start:start + length] += gain * 0.2 * bass
        right[start:start + length] += gain * 0.2 * bass
        hit = min(length, int(0.08 * rate))
        drum = rng.standard_normal(hit) * envelope(hit, rate, attack=0.001, release=0.02)
        left[start:start + hit] += gain * 0.3 * drum
        right[start:start + hit] += gain * 0.25 * drum
    return np.stack([left, right], 1)

def speech(name, text, seconds_hint):
    path = os.path.join(out, name)
    subprocess.run(["espeak-ng", "-s", "150", "-w", path, text], check=True)
    data, rate = sf.read(path)
    material[name] = (data, rate)

text = ("The quick brown fox jumps over the lazy dog. Signal path measures loudness the way "
        "broadcasters do, with gating, so that pauses between words do not pull it down. ")
speech("speech-short.wav", "Testing, one, two, three.", 2)
speech("speech-long.wav", text * 2, 20)
rate = 48000
material["white-noise-stereo.wav"] = (db(-20) * rng.uniform(-1, 1, (12 * rate, 2)), rate)
material["pink-noise-44k1.wav"] = (db(-12) * pink(15 * 44100), 44100)
t = np.arange(11 * rate) / rate
tones = 0.2 * np.sin(2 * np.pi * 100 * t) + 0.1 * np.sin(2 * np.pi * 3000 * t) + 0.05 * np.sin(2 * np.pi * 9000 * t)
material["tones-48k.wav"] = (tones * (1 + 0.5 * np.sin(2 * np.pi * 0.3 * t)), rate)
material["tone-burst-short.wav"] = (0.3 * np.sin(2 * np.pi * 500 * np.arange(3 * rate) / rate), rate)
material["music-48k.wav"] = (music(24, 48000, 0), 48000)
material["music-44k1.wav"] = (music(16, 44100, 2) * 0.5, 44100)
material["music-22k05-short.wav"] = (music(6, 22050, 1), 22050)

def ffmpeg_integrated(path):
    result = subprocess.run(
        ["ffmpeg", "-nostats", "-hide_banner", "-i", path, "-af",
         "ebur128=metadata=1,ametadata=mode=print:key=lavfi.r128.I", "-f", "null", "-"],
        capture_output=True, text=True, check=True)
    values = re.findall(r"lavfi\.r128\.I=(-?[0-9.]+|-inf)", result.stderr + result.stdout)
    return float(values[-1])

reference = []
for name, (data, rate) in material.items():
    path = os.path.join(out, name)
    if name.startswith("speech"):
        data, rate = sf.read(path)  # espeak-ng's own 16-bit file, as written
    else:
        sf.write(path, data, rate, subtype="PCM_24")
        data, rate = sf.read(path)
    seconds = len(data) / rate
    meter = pyloudnorm.Meter(rate)
    reference.append({
        "file": name, "seconds": seconds,
        "pyloudnorm_lufs": float(meter.integrated_loudness(data)),
        "ffmpeg_lufs": ffmpeg_integrated(path) if seconds >= 10 else None,
    })
with open(os.path.join(out, "reference.json"), "w") as handle:
    json.dump(reference, handle, indent=2)
for entry in reference:
    print(f"{entry['file']:26} {entry['seconds']:6.2f} s  pyloudnorm {entry['pyloudnorm_lufs']:7.2f}  ffmpeg {entry['ffmpeg_lufs']}")
