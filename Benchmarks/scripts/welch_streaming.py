#!/usr/bin/env python3
"""scipy.signal.welch over a whole file without loading it: the peer signalpath spectrum is timed against.

    python3 welch_streaming.py FILE [NPERSEG]

Reads the file in blocks of 256 whole segments (overlapping by one segment minus a hop, so every
segment of the file is seen exactly once), runs scipy.signal.welch on each block (Hann, 50 %
overlap, detrend=False, scaling='density', as `signalpath spectrum --scale psd` computes) and
averages the blocks weighted by their segment counts: the same mean over all segments as one
welch call over the whole file. Prints the frequency of the strongest bin per channel, so the
work cannot be skipped.
"""
import sys

import numpy as np
import scipy.signal
import soundfile as sf

path = sys.argv[1]
nperseg = int(sys.argv[2]) if len(sys.argv) > 2 else 4096
hop = nperseg // 2
segments_per_block = 256
block = (segments_per_block - 1) * hop + nperseg

info = sf.info(path)
total = None
count = 0
for data in sf.blocks(path, blocksize=block, overlap=nperseg - hop, dtype="float32", always_2d=True):
    if len(data) < nperseg:
        break
    segments = (len(data) - nperseg) // hop + 1
    f, p = scipy.signal.welch(data, fs=info.samplerate, window="hann", nperseg=nperseg, noverlap=nperseg - hop,
                              detrend=False, scaling="density", axis=0)
    total = p * segments if total is None else total + p * segments
    count += segments
mean = total / count
print(" ".join(f"{f[np.argmax(mean[:, c])]:.1f}" for c in range(mean.shape[1])), count)
