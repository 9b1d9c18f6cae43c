#!/usr/bin/env python3
"""Regenerates the files in Samples/ (run `make samples`). Samples/README.md states each file's content.

Integer samples are quantized here, not by the encoder: code = round(x * 2^(bits-1)) (numpy rounds
half to even), clipped to the signed range, so every 16- and 24-bit value is known from the formula.
Needs numpy, scipy and soundfile (pip); tested with numpy 2.x, scipy 1.17, soundfile 0.13+.
"""
import os

import numpy as np
import scipy.signal
import soundfile as sf

HERE = os.path.dirname(os.path.abspath(__file__))


def path(name):
    return os.path.join(HERE, name)


def quantize(x, bits):
    full = 2 ** (bits - 1)
    return np.clip(np.round(x * full), -full, full - 1).astype(np.int64)


def sine(freq, amplitude, rate, frames):
    n = np.arange(frames)
    return amplitude * np.sin(2 * np.pi * freq * n / rate)


def write_int(name, x, rate, bits, fmt="WAV", tags=None):
    codes = quantize(x, bits)
    if bits == 16:
        data, subtype = codes.astype(np.int16), "PCM_16"
    else:  # libsndfile writes the top 24 bits of each int32
        data, subtype = (codes << 8).astype(np.int32), "PCM_24"
    with sf.SoundFile(path(name), "w", samplerate=rate, channels=1 if x.ndim == 1 else x.shape[1],
                      subtype=subtype, format=fmt) as f:
        for key, value in (tags or {}).items():
            setattr(f, key, value)
        f.write(data)


def main():
    # 1 kHz sine at -6.02 dBFS (amplitude 0.5), mono, 48 kHz, 16-bit, 2 s, with title and artist tags.
    write_int("sine-1k-48k-s16-mono.wav", sine(1000, 0.5, 48000, 96000), 48000, 16,
              tags={"title": "1 kHz sine, -6.02 dBFS", "artist": "signalpath samples"})

    # The same tone, 0.25 s, in an RF64 container.
    write_int("sine-1k-48k-s16-mono.rf64", sine(1000, 0.5, 48000, 12000), 48000, 16, fmt="RF64")

    # Stereo: 440 Hz left, 880 Hz right, both at amplitude 0.5, 44.1 kHz, 16-bit, 1 s.
    stereo = np.stack([sine(440, 0.5, 44100, 44100), sine(880, 0.5, 44100, 44100)], axis=1)
    write_int("stereo-440L-880R-44k1-s16.wav", stereo, 44100, 16)

    # A logarithmic chirp from 20 Hz to 20 kHz over 2 s, amplitude 0.5, mono, 48 kHz, 24-bit FLAC.
    t = np.arange(96000) / 48000
    chirp = 0.5 * scipy.signal.chirp(t, f0=20, t1=2.0, f1=20000, method="logarithmic", phi=-90)
    write_int("chirp-log-20-20k-48k-s24.flac", chirp, 48000, 24, fmt="FLAC")

    # 500 Hz for 2 s, then 1 kHz for 2 s, both at amplitude 0.5, mono, 48 kHz, 16-bit.
    step = np.concatenate([sine(500, 0.5, 48000, 96000), sine(1000, 0.5, 48000, 192000)[96000:]])
    write_int("tone-step-500-1k-48k-s16.wav", step, 48000, 16)

    # Seeded pink noise (1/f power), RMS 0.1 (-20.00 dBFS re full-scale square), mono, 48 kHz, 16-bit, 2 s.
    rng = np.random.default_rng(1)
    white = rng.standard_normal(96000)
    spectrum = np.fft.rfft(white)
    f = np.fft.rfftfreq(96000, 1 / 48000)
    spectrum[1:] /= np.sqrt(f[1:])
    spectrum[0] = 0
    pink = np.fft.irfft(spectrum, 96000)
    pink *= 0.1 / np.sqrt(np.mean(pink ** 2))
    write_int("pink-noise-seed1-48k-s16.wav", pink, 48000, 16)

    # Digital silence, stereo, 48 kHz, 32-bit float, 0.5 s.
    sf.write(path("silence-48k-f32-stereo.wav"), np.zeros((24000, 2), dtype=np.float32), 48000, subtype="FLOAT")

    # Ogg Vorbis, lossy: an A major chord (440, 554.37, 659.26 Hz, each at amplitude 0.15 with a
    # second harmonic at 0.05), right channel delayed by 1 ms, 44.1 kHz, 3 s.
    t = np.arange(3 * 44100) / 44100
    chord = sum(0.15 * np.sin(2 * np.pi * f0 * t) + 0.05 * np.sin(4 * np.pi * f0 * t) for f0 in (440, 554.37, 659.26))
    delayed = np.concatenate([np.zeros(44), chord[:-44]])
    sf.write(path("chord-a-major-44k1-stereo.ogg"), np.stack([chord, delayed], axis=1), 44100,
             format="OGG", subtype="VORBIS")

    # Opus, lossy: 440 Hz at amplitude 0.25 (-12.04 dBFS), mono, 48 kHz, 2 s.
    sf.write(path("tone-a4-48k.opus"), sine(440, 0.25, 48000, 96000), 48000, format="OGG", subtype="OPUS")


if __name__ == "__main__":
    main()
