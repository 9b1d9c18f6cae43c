#!/usr/bin/env python3
"""Applies a gain with sox and measures the result independently of signalpath.

    python3 Tests/Reference/gain_reference.py IN.wav GAIN_DB OUT.wav

writes OUT.wav (`sox IN -e floating-point OUT gain GAIN_DB`: 32-bit float, so nothing clips) and
prints JSON {"integrated_lufs": pyloudnorm's BS.1770 integrated loudness of OUT,
"true_peak_dbtp": the largest |sample| of OUT upsampled 16x by scipy.signal.resample_poly}.
CheckCLITests compares these with what `signalpath check` said the gain would give.
"""
import json, subprocess, sys
import numpy as np
import soundfile as sf
import pyloudnorm
from scipy.signal import resample_poly

source, gain, out = sys.argv[1], sys.argv[2], sys.argv[3]
subprocess.run(["sox", source, "-e", "floating-point", out, "gain", gain], check=True)
samples, rate = sf.read(out, always_2d=True)
loudness = pyloudnorm.Meter(rate).integrated_loudness(samples)
peak = np.max(np.abs(resample_poly(samples, 16, 1, axis=0)))
print(json.dumps({"integrated_lufs": loudness, "true_peak_dbtp": 20 * np.log10(peak)}))
