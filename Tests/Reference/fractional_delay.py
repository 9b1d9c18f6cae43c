#!/usr/bin/env python3
"""Writes a stereo file whose right channel is the left one delayed by a fraction of a sample.

    python3 Tests/Reference/fractional_delay.py IN.wav DELAY_SAMPLES OUT.wav

The left channel is IN's first channel; the right is the same shifted by DELAY_SAMPLES (positive:
later) with a linear phase in the frequency domain over a copy padded to twice its length, an exact
band-limited delay without wrap-around. Both are written as 16-bit PCM. AnalyzeCLITests compares
analyze's stereo delay of OUT with DELAY_SAMPLES.
"""
import sys
import numpy as np
import soundfile as sf

source, delay, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
samples, rate = sf.read(source, always_2d=True)
left = samples[:, 0]
n = len(left)
spectrum = np.fft.rfft(np.concatenate([left, np.zeros(n)]))
phase = np.exp(-2j * np.pi * np.fft.rfftfreq(2 * n) * delay)
right = np.fft.irfft(spectrum * phase, n=2 * n)[:n]
pair = np.stack([left, right], axis=1)
sf.write(out, 0.9 * pair / max(1e-9, np.max(np.abs(pair))), rate, subtype="PCM_16")
