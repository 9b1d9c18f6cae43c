#!/usr/bin/env python3
"""Makes pairs of real recordings with known differences, for `compare`.

    python3 Tests/Reference/compare_material.py OUTDIR

A is espeak-ng speech (brought to 48 kHz by sox) or a short fluidsynth piece (rendered at 48 kHz);
B is A changed by a known amount, made here with numpy/scipy or by a real encoder:
  delay        B = A delayed by 37.25 samples (a linear phase over a zero-padded FFT: an exact band-limited delay)
  gain         B = music × 10^(-3.5/20), delayed by 5.5 samples
  inverted     B = −music
  drift        B = speech resampled by scipy.signal.resample_poly(10001, 10000): its clock runs 100 ppm fast
  rate         B = speech converted to 44.1 kHz by sox
  flac         B = the 16-bit music WAV encoded by ffmpeg's FLAC encoder (lossless: the same samples)
  mp3          B = the music through ffmpeg's libmp3lame at 128 kb/s
  noise        B = speech + seeded white noise at -50 dBFS RMS
Prints JSON: {"pairs": {name: {"a", "b", and the known answer}}}. CompareCLITests runs `signalpath compare`.
"""
import json, os, subprocess, sys
import numpy as np
import soundfile as sf
from scipy.signal import resample_poly

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from band_score import render_band

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
RATE = 48000


def run(arguments):
    subprocess.run(arguments, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def path(name):
    return os.path.join(out, name)


def write(name, samples, subtype="FLOAT"):
    sf.write(path(name), samples, RATE, subtype=subtype)
    return path(name)


def speech():
    raw = path("speech-raw.wav")
    run(["espeak-ng", "-w", raw, "A null test aligns two recordings, subtracts them, and measures what is left over."])
    resampled = path("speech-48k.wav")
    run(["sox", raw, "-b", "32", "-e", "floating-point", resampled, "rate", "-v", "48000"])
    samples, _ = sf.read(resampled)
    return 0.5 * samples / np.max(np.abs(samples))


def music():
    """Four bars of chords, bass and a melody, rendered by fluidsynth at 48 kHz."""
    rendered = render_band(out, [57, 53, 48, 55], 120, np.random.default_rng(41), RATE)
    samples, _ = sf.read(rendered, always_2d=True)
    return 0.5 * samples / np.max(np.abs(samples))


def delayed(samples, delay):
    """`samples` (frames × channels) delayed by `delay` samples: a linear phase over a copy padded to twice its length."""
    n = len(samples)
    phase = np.exp(-2j * np.pi * np.fft.rfftfreq(2 * n) * delay)
    padded = np.concatenate([samples, np.zeros_like(samples)])
    return np.fft.irfft(np.fft.rfft(padded, axis=0) * phase[:, None], n=2 * n, axis=0)[:n]


voice = speech()[:, None]
piece = music()
pairs = {}
speech_a = write("speech.wav", voice)
music_a = write("music.wav", piece)

pairs["delay"] = {"a": speech_a, "b": write("speech-delay.wav", delayed(voice, 37.25)), "delay_samples": 37.25}
pairs["gain"] = {"a": music_a, "b": write("music-gain.wav", 10 ** (-3.5 / 20) * delayed(piece, 5.5)), "gain_db": -3.5, "delay_samples": 5.5}
pairs["inverted"] = {"a": music_a, "b": write("music-inverted.wav", -piece), "gain_db": 0.0, "delay_samples": 0.0}
pairs["drift"] = {"a": speech_a, "b": write("speech-drift.wav", resample_poly(voice, 10001, 10000, axis=0)), "drift_ppm": 100.0}

rate_b = path("speech-44k1.wav")
run(["sox", speech_a, "-b", "32", "-e", "floating-point", rate_b, "rate", "-v", "44100"])
pairs["rate"] = {"a": speech_a, "b": rate_b, "max_residual_dbfs": -60.0}

music16 = write("music-16.wav", piece, subtype="PCM_16")
flac = path("music-16.flac")
run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", music16, "-c:a", "flac", flac])
pairs["flac"] = {"a": music16, "b": flac, "identical": True}

mp3 = path("music.mp3")
run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", music16, "-c:a", "libmp3lame", "-b:a", "128k", mp3])
pairs["mp3"] = {"a": music16, "b": mp3, "identical": False}

noise = np.random.default_rng(41).standard_normal(voice.shape)
noise *= 10 ** (-50 / 20) / np.sqrt(np.mean(noise ** 2))
pairs["noise"] = {"a": speech_a, "b": write("speech-noise.wav", voice + noise), "residual_rms_dbfs": -50.0}

print(json.dumps({"pairs": pairs}))
