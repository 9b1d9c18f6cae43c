#!/usr/bin/env python3
"""Regenerates the scipy.signal.welch fixture the spectrum tests compare against.

    python3 Tests/Fixtures/make_welch_fixture.py

Writes welch-noise.wav (seeded Gaussian noise, 2 s, 48 kHz, mono, 16-bit PCM, quantized here as
round(x * 32768)) and welch-noise-psd.csv: for two parameter sets, scipy's one-sided power spectral
density (scaling='density', detrend=False: signalpath does not remove each segment's mean) in dB
re 1 FS²/Hz, computed from the same 16-bit values the file holds. The first line states the
versions used.
"""
import os

import numpy as np
import scipy
import scipy.signal
import soundfile as sf

HERE = os.path.dirname(os.path.abspath(__file__))
RATE = 48000

rng = np.random.default_rng(2026)
codes = np.clip(np.round(rng.standard_normal(2 * RATE) * 0.1 * 32768), -32768, 32767).astype(np.int16)
sf.write(os.path.join(HERE, "welch-noise.wav"), codes, RATE, subtype="PCM_16")
x = codes.astype(np.float64) / 32768

cases = [
    ("hann", 4096, 2048),
    ("blackmanharris", 1000, 750),
]
with open(os.path.join(HERE, "welch-noise-psd.csv"), "w") as out:
    out.write(f"# scipy {scipy.__version__}, numpy {np.__version__}; signal.welch(x, fs={RATE}, window, nperseg, noverlap, detrend=False, scaling='density')\n")
    out.write("window,nperseg,noverlap,frequency_hz,psd_db\n")
    for window, nperseg, noverlap in cases:
        f, p = scipy.signal.welch(x, fs=RATE, window=window, nperseg=nperseg, noverlap=noverlap,
                                  detrend=False, scaling="density")
        for fk, pk in zip(f, p):
            out.write(f"{window},{nperseg},{noverlap},{float(fk)!r},{float(10 * np.log10(pk))!r}\n")
