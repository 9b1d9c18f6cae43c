#!/usr/bin/env python3
"""Makes the benchmark files once, in Benchmarks/Data (git-ignored):

- long-60min.wav: 60 minutes, 48 kHz, stereo, 16-bit; left a 1 kHz sine at -6 dBFS (peak),
  right seeded pink noise at -20 dBFS RMS (a one-pole sum pinking filter over white noise).
- long-10min-s24.flac: the first 10 minutes of it as 24-bit FLAC (sox).
- long-10min-aac.m4a: the same 10 minutes as AAC in M4A (ffmpeg, 192 kb/s), for the FFmpeg backend;
  long-10min-aac-decoded.wav: ffmpeg's decode of it as float WAV (the analysis alone, same samples).
- sparse-4.5GB.rf64: an RF64 of 4.5 GB, 48 kHz stereo 16-bit (6 h 30 min), sparse on disk: silence
  except one minute of the long file's audio at 45:00 and the last minute.
Each file is made only when missing.
"""
import os, struct, subprocess, sys
import numpy as np
import soundfile as sf
from scipy.signal import lfilter

data = sys.argv[1] if len(sys.argv) > 1 else "Benchmarks/Data"
os.makedirs(data, exist_ok=True)
rate = 48000
long_wav = os.path.join(data, "long-60min.wav")

def minute_blocks(seconds):
    """Yields one minute of stereo float frames at a time: the sine and the pink noise."""
    rng = np.random.default_rng(20261122)
    b = [0.049922035, -0.095993537, 0.050612699, -0.004408786]
    a = [1, -2.494956002, 2.017265875, -0.522189400]
    state = np.zeros(3)
    scale = None
    for start in range(0, seconds * rate, 60 * rate):
        n = min(60 * rate, seconds * rate - start)
        t = (np.arange(start, start + n)) / rate
        left = 10 ** (-6 / 20) * np.sin(2 * np.pi * 1000 * t)
        pink, state = lfilter(b, a, rng.standard_normal(n), zi=state)
        if scale is None:
            scale = 0.1 / np.sqrt(np.mean(pink ** 2))  # -20 dBFS RMS (full-scale square = 0 dB)
        yield np.stack([left, pink * scale], 1)

if not os.path.exists(long_wav):
    with sf.SoundFile(long_wav + ".part", "w", rate, 2, "PCM_16", format="WAV") as out:
        for block in minute_blocks(3600):
            out.write(block)
    os.rename(long_wav + ".part", long_wav)

flac = os.path.join(data, "long-10min-s24.flac")
if not os.path.exists(flac):
    subprocess.run(["sox", long_wav, "-b", "24", flac + ".part.flac", "trim", "0", "600"], check=True)
    os.rename(flac + ".part.flac", flac)

# The FFmpeg backend's row: the first 10 minutes as AAC in M4A (ffmpeg's encoder, 192 kb/s).
m4a = os.path.join(data, "long-10min-aac.m4a")
if not os.path.exists(m4a):
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-i", long_wav, "-t", "600", "-c:a", "aac", "-b:a", "192k",
                    m4a + ".part.m4a"], check=True)
    os.rename(m4a + ".part.m4a", m4a)
decoded = os.path.join(data, "long-10min-aac-decoded.wav")
if not os.path.exists(decoded):
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-i", m4a, "-c:a", "pcm_f32le", decoded + ".part.wav"], check=True)
    os.rename(decoded + ".part.wav", decoded)

rf64 = os.path.join(data, "sparse-4.5GB.rf64")
if not os.path.exists(rf64):
    frames = int(4.5e9) // 4
    data_bytes = frames * 4
    header = (b"RF64" + struct.pack("<I", 0xFFFFFFFF) + b"WAVE"
              + b"ds64" + struct.pack("<IQQQI", 28, 0, data_bytes, frames, 0)
              + b"fmt " + struct.pack("<IHHIIHH", 16, 1, 2, rate, rate * 4, 4, 16)
              + b"data" + struct.pack("<I", 0xFFFFFFFF))
    riff_size = len(header) - 8 + data_bytes
    header = header[:20] + struct.pack("<QQQI", riff_size, data_bytes, frames, 0) + header[48:]
    minute, _ = sf.read(long_wav, frames=60 * rate, dtype="int16")
    with open(rf64 + ".part", "wb") as out:
        out.write(header)
        out.truncate(len(header) + data_bytes)
        for start in (2700 * rate, frames - 60 * rate):
            out.seek(len(header) + start * 4)
            out.write(minute.astype("<i2").tobytes())
    os.rename(rf64 + ".part", rf64)
print(f"benchmark data in {data}")
