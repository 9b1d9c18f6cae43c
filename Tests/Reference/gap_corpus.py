#!/usr/bin/env python3
"""Gaps put into real programme at seeded places, with the truth, for `events`' dropout and silence
rules (docs/EVENTS.md, "Gaps inside sound").

    python3 Tests/Reference/gap_corpus.py --out DIR [--lengths-ms 1,5,250] [--kinds zero,dither] [--sources music,speech]

Sources: music rendered by fluidsynth (stereo, 44.1 kHz) and recorded speech (the voice prompts
alsa-utils installs, 48 kHz mono), each written as 16-bit and as 24-bit PCM, and copies without any
gap ("clean": continuous programme, for the rule's other side). Into each gapped copy one gap per
length is put, at a seeded place whose 10 ms on both sides hold sound (RMS at least -40 dBFS in
every channel) and whose neighbourhood 50 ms either side holds no other gap; in a stereo file the
gap is in both channels (a dropout of the programme, not of one channel).

Kinds of gap:
  zero     digital zero;
  dither   TPDF dither at the format's last bits: the sum of two uniform integers of -1..1 LSB
           (values -2..2 LSB), as sox and a dithering editor write for a muted region;
  fall     the programme turned down by --fall-db (60 dB), where its own level holds: every 1 ms of
           it under the gap and in the 10 ms around within 15 dB of the 10 ms before (so that the
           gap lies at least 40 dB below the sound around it).

Writes DIR/NAME.wav and DIR/truth.json: {"files": [{"file", "source", "bits", "rate",
"channels", "gaps": [{"kind", "start", "end", "expect"}]}]} with frames (end exclusive); "expect"
is the row the gap should give: "silence" when it is at least 0.5 s long and every sample of every
channel in it lies below -60 dBFS (the silence rule's defaults), else "dropout". Everything random
comes from numpy's default_rng with fixed seeds.

Needs numpy, soundfile, mido; fluidsynth with FluidR3_GM.sf2; alsa-utils' prompts.
"""
import argparse, json, os, subprocess, sys, tempfile

import numpy as np
import soundfile as sf

SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
PROMPTS = "/usr/share/sounds/alsa"
SEED = 20261127


def music(seconds, rate, scratch):
    """A seeded piece: piano chords and runs, strings, bass and drums, as the authenticity corpus
    writes it (its write_midi), rendered by fluidsynth without its reverb tail."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from authenticity_corpus import write_midi
    mid, raw = os.path.join(scratch, "piece.mid"), os.path.join(scratch, "piece.wav")
    write_midi(mid, seconds, np.random.default_rng([SEED, 1]))
    subprocess.run(["fluidsynth", "-ni", "-q", "-F", raw, "-r", str(rate), "-T", "wav", "-O", "float", "-g", "0.6",
                    SOUNDFONT, mid], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    x, _ = sf.read(raw, dtype="float64")
    x = x[int(0.5 * rate):int((0.5 + seconds) * rate)]
    return x / np.max(np.abs(x)) * 10 ** (-3 / 20)


def speech():
    """The nine prompts one after another (about 14 s), peak -3 dBFS."""
    names = sorted(n for n in os.listdir(PROMPTS) if n.endswith(".wav") and n != "Noise.wav")
    x = np.concatenate([sf.read(os.path.join(PROMPTS, n), dtype="float64")[0] for n in names])
    return (x / np.max(np.abs(x)) * 10 ** (-3 / 20))[:, None]


def quantise(x, bits, rng):
    """PCM codes of `bits` bits with TPDF dither (what a careful editor writes)."""
    scale = 2 ** (bits - 1)
    codes = np.round(x * scale + rng.uniform(-0.5, 0.5, x.shape) + rng.uniform(-0.5, 0.5, x.shape))
    return np.clip(codes, -scale, scale - 1)


def place(codes, bits, rate, lengths, kinds, rng, fall_db):
    """Puts one gap of each (kind, length) at a seeded free place with sound around it."""
    scale = 2.0 ** (bits - 1)
    flank = rate // 100
    level = lambda a: 10 * np.log10(np.mean((a / scale) ** 2, axis=0) + 1e-30)
    block = rate // 1000

    def steady(s, e):
        reference = level(codes[s - flank:s])
        span = codes[s - flank:s - flank + (e - s + 2 * flank) // block * block] / scale
        blocks = 10 * np.log10(np.mean(span.reshape(-1, block, span.shape[1]) ** 2, axis=1) + 1e-30)
        return bool((np.abs(blocks - reference) <= 15).all())

    gaps = []
    for kind in kinds:
        for ms in lengths:
            n = max(1, int(round(ms * rate / 1000)))
            for _ in range(20000):
                s = int(rng.integers(flank + 1, len(codes) - n - flank - 1))
                e = s + n
                if all(e + rate // 20 < a or s > b + rate // 20 for _, a, b in gaps) \
                        and (level(codes[s - flank:s]) >= -40).all() and (level(codes[e:e + flank]) >= -40).all() \
                        and (kind != "fall" or steady(s, e)):
                    break
            else:
                print(f"no place for a {ms} ms {kind} gap: left out", file=sys.stderr)
                continue
            gaps.append((kind, s, e))
    for kind, s, e in gaps:
        if kind == "zero":
            codes[s:e] = 0
        elif kind == "dither":
            codes[s:e] = rng.integers(-1, 2, codes[s:e].shape) + rng.integers(-1, 2, codes[s:e].shape)
        elif kind == "fall":
            codes[s:e] = np.round(codes[s:e] * 10 ** (-fall_db / 20))
    def expect(s, e):
        quiet = np.max(np.abs(codes[s:e])) / scale < 10 ** (-60 / 20)
        return "silence" if e - s >= rate // 2 and quiet else "dropout"

    return sorted(((kind, s, e, expect(s, e)) for kind, s, e in gaps), key=lambda g: g[1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--lengths-ms", default="1,2,5,20,60,120,190,250,400,490,700,1500")
    parser.add_argument("--kinds", default="zero,dither,fall")
    parser.add_argument("--sources", default="music,speech")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the music")
    parser.add_argument("--fall-db", type=float, default=60.0, help="how far a fall turns the programme down")
    args = parser.parse_args()
    lengths = [float(v) for v in args.lengths_ms.split(",")]
    kinds = args.kinds.split(",")
    os.makedirs(args.out, exist_ok=True)
    files = []
    with tempfile.TemporaryDirectory() as scratch:
        sources = {}
        if "music" in args.sources:
            sources["music"] = (music(args.seconds, 44100, scratch), 44100)
        if "speech" in args.sources:
            sources["speech"] = (speech(), 48000)
        for index, (name, (x, rate)) in enumerate(sorted(sources.items())):
            for bits in (16, 24):
                rng = np.random.default_rng([SEED, index, bits])
                clean = quantise(x, bits, rng)
                subtype = f"PCM_{bits}"
                scale = 2.0 ** (bits - 1)
                path = f"{name}-{bits}-clean.wav"
                sf.write(os.path.join(args.out, path), clean / scale, rate, subtype=subtype)
                files.append({"file": path, "source": name, "bits": bits, "rate": rate, "channels": x.shape[1], "gaps": []})
                for kind in kinds:
                    codes = clean.copy()
                    gaps = place(codes, bits, rate, lengths, [kind], rng, args.fall_db)
                    path = f"{name}-{bits}-{kind}.wav"
                    sf.write(os.path.join(args.out, path), codes / scale, rate, subtype=subtype)
                    files.append({"file": path, "source": name, "bits": bits, "rate": rate, "channels": x.shape[1],
                                  "gaps": [{"kind": k, "start": s, "end": e, "expect": x} for k, s, e, x in gaps]})
    with open(os.path.join(args.out, "truth.json"), "w") as out:
        json.dump({"files": files}, out, indent=1)


if __name__ == "__main__":
    main()
