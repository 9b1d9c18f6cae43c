#!/usr/bin/env python3
"""Makes a long programme for the loudness chart: music and speech at varied levels, with stretches
of digital silence and of room tone below the absolute gate between them.

    python3 Tests/Reference/loudness_programme.py OUT.wav MINUTES [RATE]

Music is a seeded MIDI piece rendered by fluidsynth (FluidR3_GM.sf2), speech is espeak-ng reading
sentences with pauses (SSML breaks); sox brings both to RATE (default 48000) mono. The programme
cycles through music, speech, digital silence (8-25 s of exact zeros) and room tone (pink noise
at -85 dBFS), each piece at a seeded gain from -14 to -30 dB, until MINUTES; it is written to OUT.wav
(16-bit) piece by piece, so memory stays bounded for hours. Prints JSON: {"path", "seconds",
"rate", "silences": [[start_s, end_s], ...] (the digital silences, exact to the sample),
"room_tone": [[start_s, end_s], ...]}.
"""
import json, os, subprocess, sys, tempfile
import numpy as np
import soundfile as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from band_score import render_band

out, minutes = sys.argv[1], float(sys.argv[2])
rate = int(sys.argv[3]) if len(sys.argv) > 3 else 48000
rng = np.random.default_rng(39)


def run(arguments):
    subprocess.run(arguments, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def music(folder):
    """Sixteen bars of chords, bass and a melody at 100 bpm (about 38 s), as float samples (the
    chords' velocity cycles over five bars, the melody's spans 60-114)."""
    rendered = render_band(folder, [57, 53, 48, 55] * 4, 100, rng, chord_velocity=lambda bar: 60 + 4 * (bar % 5),
                           melody_velocities=(60, 115))
    converted = os.path.join(folder, "music.wav")
    run(["sox", rendered, "-r", str(rate), "-c", "1", "-e", "floating-point", converted, "gain", "-n", "-3"])
    return sf.read(converted, dtype="float32")[0]


def speech(folder):
    """espeak-ng reading with pauses of 0.3-1.2 s between phrases (about 30 s)."""
    phrases = [
        "Welcome back to the programme.", "Tonight we look at how loudness is measured over time,",
        "and why a chart of three hours must still be readable.", "A meter shows the momentary level,",
        "the short-term level over three seconds,", "and the integrated level of the whole programme.",
        "Pauses between phrases are quiet,", "but they are not silence.", "After the music, we continue.",
    ]
    text = "<speak>" + "".join(f'{phrase}<break time="{int(rng.integers(300, 1200))}ms"/>' for phrase in phrases) + "</speak>"
    raw, converted = os.path.join(folder, "speech-raw.wav"), os.path.join(folder, "speech.wav")
    run(["espeak-ng", "-m", "-w", raw, text])
    run(["sox", raw, "-r", str(rate), "-c", "1", "-e", "floating-point", converted, "gain", "-n", "-3"])
    return sf.read(converted, dtype="float32")[0]


def room_tone(folder, seconds):
    """Pink noise at -85 dBFS RMS: below the absolute gate (-70 LUFS) but not digital silence."""
    path = os.path.join(folder, "room.wav")
    run(["sox", "-R", "-n", "-r", str(rate), "-c", "1", "-e", "floating-point", path, "synth", str(seconds), "pinknoise", "gain", "-n", "-85"])
    return sf.read(path, dtype="float32")[0]


with tempfile.TemporaryDirectory() as folder:
    played, spoken, room = music(folder), speech(folder), room_tone(folder, 6)
total = int(minutes * 60 * rate)
silences, tones = [], []
position = 0
kinds = ["music", "speech", "silence", "speech", "room", "music", "silence"]
with sf.SoundFile(out, "w", samplerate=rate, channels=1, subtype="PCM_16") as file:
    piece = 0
    while position < total:
        kind = kinds[piece % len(kinds)]
        piece += 1
        if kind == "silence":
            samples = np.zeros(int(rng.uniform(8, 25) * rate), dtype=np.float32)
        elif kind == "room":
            samples = room
        else:
            source = played if kind == "music" else spoken
            samples = source * np.float32(10 ** (rng.uniform(-30, -14) / 20 + 12 / 20))
        samples = samples[: total - position]
        if kind == "silence":
            silences.append([position / rate, (position + len(samples)) / rate])
        elif kind == "room":
            tones.append([position / rate, (position + len(samples)) / rate])
        file.write(np.clip(samples, -1, 32767 / 32768))
        position += len(samples)
print(json.dumps({"path": out, "seconds": position / rate, "rate": rate, "silences": silences, "room_tone": tones}))
