#!/usr/bin/env python3
"""A generated archive for the scan tests: `scan_tree.py DIR SEED COUNT` writes COUNT audio files
(WAV, FLAC and Ogg Vorbis by libsndfile through soundfile, MP3 by ffmpeg's libmp3lame) of 0.5-10 s
in nested folders, plus broken files, a non-audio file and a symbolic link loop, and prints a JSON
manifest: the audio files, the broken ones, the non-audio ones, and files whose loudness is known
(EBU Tech 3341 case 1: a 1 kHz sine at -23 dBFS in both channels reads -23.0 LUFS).

Most files are short and at low rates: the test suite runs the debug build, whose analysis time
grows with the samples, and what scan adds (walking, skipping, storing, sharding) is per file.
"""
import json, os, random, subprocess, sys

import numpy as np
import soundfile as sf

root, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
noise = np.random.default_rng(seed)
manifest = {"audio": [], "broken": [], "other": [], "known_lufs": {}}
folders = ["", "a", "a/b", "a/b/c", "d", "d/e", "f g"]
for folder in folders:
    os.makedirs(os.path.join(root, folder), exist_ok=True)


def signal(rate, channels, seconds):
    frames = int(rate * seconds)
    t = np.arange(frames) / rate
    kind = rng.choice(["sine", "noise", "chirp"])
    if kind == "sine":
        x = 0.5 * np.sin(2 * np.pi * rng.uniform(50, rate / 4) * t)
    elif kind == "noise":
        x = noise.normal(0, 0.1, frames)
    else:
        x = 0.4 * np.sin(2 * np.pi * (50 + (rate / 4) * t / seconds / 2) * t)
    return np.clip(np.repeat(x[:, None], channels, axis=1), -1, 1)


mp3_jobs = []
for index in range(count):
    folder = rng.choice(folders)
    kind = rng.choices(["wav", "flac", "ogg", "mp3"], weights=[60, 20, 12, 8])[0]
    # One file in 20 is long (5-10 s); the rest 0.5-1 s.
    seconds = rng.uniform(5, 10) if index % 20 == 0 else rng.uniform(0.5, 1.0)
    rate = rng.choice([8000, 11025, 16000]) if kind != "ogg" else rng.choice([16000, 22050])
    channels = rng.choice([1, 2])
    path = os.path.join(root, folder, f"take {index:03d}.{kind}")
    x = signal(rate, channels, seconds)
    if kind == "mp3":
        wav = path + ".tmp.wav"
        sf.write(wav, x, rate, subtype="PCM_16")
        mp3_jobs.append((wav, path))
    else:
        subtype = {"wav": "PCM_16", "flac": "PCM_16", "ogg": "VORBIS"}[kind]
        sf.write(path, x, rate, subtype=subtype)
    manifest["audio"].append(os.path.abspath(path))

for wav, path in mp3_jobs:
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-i", wav, "-c:a", "libmp3lame", "-b:a", "64k", path], check=True)
    os.remove(wav)

# Known loudness: EBU Tech 3341 case 1 (1 kHz, -23 dBFS, stereo), 2 s at 48 kHz.
t = np.arange(2 * 48000) / 48000
tone = 10 ** (-23 / 20) * np.sin(2 * np.pi * 1000 * t)
for name in ["a/tech3341-case1.wav", "d/e/tech3341-case1.flac"]:
    path = os.path.join(root, name)
    sf.write(path, np.stack([tone, tone], axis=1), 48000, subtype="PCM_24")
    manifest["audio"].append(os.path.abspath(path))
    manifest["known_lufs"][os.path.abspath(path)] = -23.0

# Broken: random bytes named .wav, a FLAC cut after its header, an empty MP3.
broken = {"a/b/noise-bytes.wav": bytes(noise.integers(0, 256, 4000, dtype=np.uint8)), "d/empty.mp3": b""}
for name, data in broken.items():
    with open(os.path.join(root, name), "wb") as out:
        out.write(data)
    manifest["broken"].append(os.path.abspath(os.path.join(root, name)))
flac = open(os.path.join(root, "d/e/tech3341-case1.flac"), "rb").read()
with open(os.path.join(root, "f g/cut.flac"), "wb") as out:
    out.write(flac[:200])
manifest["broken"].append(os.path.abspath(os.path.join(root, "f g/cut.flac")))

# Not audio: taken by no default pattern.
for name in ["notes.txt", "a/cover.jpg"]:
    with open(os.path.join(root, name), "w") as out:
        out.write("not audio\n")
    manifest["other"].append(os.path.abspath(os.path.join(root, name)))

# A link back up the tree.
os.symlink("..", os.path.join(root, "a/b/c/up-loop"))
manifest["loop"] = os.path.abspath(os.path.join(root, "a/b/c/up-loop"))
print(json.dumps(manifest))
