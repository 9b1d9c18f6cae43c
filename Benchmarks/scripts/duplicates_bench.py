#!/usr/bin/env python3
"""duplicates' benchmark (issue 42), run by run_bench.py or alone: `duplicates_bench.py SIGNALPATH DATA_DIR`.

A scan database of 100 000 rows with fingerprints of 120 s (968 sub-fingerprints each, as fpcalc
gives for 120 s), made once in DATA_DIR: its schema is the one `signalpath scan --md5
--fingerprint` writes (one real file is scanned first), the rows are copies of that row with
seeded fingerprints. Consecutive sub-fingerprints differ in about two bits, as Chromaprint's do
(each is XORed with the AND of four random words). 1 000 rows are near copies of others (shifted
up to 40 sub-fingerprints, 3 % of bits flipped) and 500 share an audio MD5 in pairs. Then
`signalpath duplicates DB --format json` is timed (hyperfine) and its peak RSS taken (GNU time),
and the planted copies are checked to be found.
"""
import json, os, sqlite3, subprocess, sys, tempfile

import numpy as np
import soundfile as sf

from bench_parts import hyperfine, print_part

ROWS = 100_000
ITEMS = 968
NEAR = 1_000
EXACT_PAIRS = 250


def fingerprints(rng, count):
    steps = rng.integers(0, 2**32, (count, ITEMS), dtype=np.uint32)
    for _ in range(3):
        steps &= rng.integers(0, 2**32, (count, ITEMS), dtype=np.uint32)
    steps[:, 0] = rng.integers(0, 2**32, count, dtype=np.uint32)
    return np.bitwise_xor.accumulate(steps, axis=1)


def make_database(signalpath, path, seed=42):
    if os.path.exists(path):
        return
    rng = np.random.default_rng(seed)
    work = tempfile.mkdtemp(prefix="signalpath-duplicates-bench-")
    seed_file = os.path.join(work, "seed.wav")
    t = np.arange(44100 * 15) / 44100
    sf.write(seed_file, 0.3 * np.sin(2 * np.pi * (200 + 100 * np.floor(t * 4) % 800) * t), 44100, subtype="PCM_16")
    partial = path + ".part"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(partial + suffix):
            os.remove(partial + suffix)
    subprocess.run([signalpath, "scan", seed_file, "--db", partial, "--md5", "--fingerprint"], check=True, stdout=subprocess.DEVNULL)
    db = sqlite3.connect(partial)
    columns = [row[1] for row in db.execute("PRAGMA table_info(files)")]
    template = dict(zip(columns, db.execute("SELECT * FROM files").fetchone()))
    db.execute("DELETE FROM files")
    placeholders = ", ".join("?" for _ in columns)
    near_sources = rng.choice(ROWS - NEAR, NEAR, replace=False)
    batch = 10_000
    for start in range(0, ROWS, batch):
        prints = fingerprints(rng, min(batch, ROWS - start))
        rows = []
        for offset, raw in enumerate(prints):
            index = start + offset
            row = dict(template)
            row["path"] = f"/archive/{index // 1000:03}/track-{index:06}.flac"
            row["audio_md5"] = f"{rng.integers(2**63):032x}" if index >= 2 * EXACT_PAIRS else f"{index // 2:032x}"
            row["fingerprint_raw"] = raw.astype("<u4").tobytes()
            row["fingerprint"] = "AQAD" + raw[:700].astype("<u4").tobytes().hex()[:2600]
            row["fingerprint_duration_s"] = 120.0
            row["duration_s"] = float(rng.uniform(120, 400))
            rows.append(row)
        db.executemany(f"INSERT INTO files ({', '.join(columns)}) VALUES ({placeholders})", [[r[c] for c in columns] for r in rows])
    # The last NEAR rows become near copies of earlier ones: shifted, with 3 % of bits flipped.
    planted = {}
    for number, source in enumerate(near_sources):
        target = ROWS - NEAR + number
        raw = np.frombuffer(db.execute("SELECT fingerprint_raw FROM files WHERE path = ?", (f"/archive/{source // 1000:03}/track-{source:06}.flac",)).fetchone()[0], "<u4")
        shift = int(rng.integers(0, 41))
        flips = np.zeros(ITEMS - shift, dtype=np.uint32)
        for bit in range(32):
            flips |= (rng.random(ITEMS - shift) < 0.03).astype(np.uint32) << np.uint32(bit)
        copy = raw[shift:] ^ flips
        db.execute("UPDATE files SET fingerprint_raw = ? WHERE path = ?", (copy.astype("<u4").tobytes(), f"/archive/{target // 1000:03}/track-{target:06}.flac"))
        planted[int(source)] = target
    db.commit()
    db.close()
    with open(path + ".planted.json", "w") as out:
        json.dump(planted, out)
    os.rename(partial, path)


def run(signalpath, data):
    database = os.path.join(data, "duplicates-100k.db")
    make_database(signalpath, database)
    command = f"{signalpath} duplicates {database} --format json > /dev/null"
    results = hyperfine([("signalpath duplicates, 100 000 fingerprints", command)], runs=3)
    timed = subprocess.run(["/usr/bin/time", "-f", "%M", signalpath, "duplicates", database, "--format", "json"], capture_output=True, text=True, check=True)
    rss = int(timed.stderr.strip().splitlines()[-1]) / 1024
    report = json.loads(timed.stdout)
    found = {frozenset(f["path"] for f in group["files"]) for group in report["near"]}
    planted = json.load(open(database + ".planted.json"))
    name = lambda index: f"/archive/{index // 1000:03}/track-{index:06}.flac"
    missed = sum(1 for source, target in planted.items() if not any({name(int(source)), name(target)} <= group for group in found))
    print(f"duplicates: {results['signalpath duplicates, 100 000 fingerprints']['median']:.2f} s, {rss:.0f} MB, "
          f"{len(report['near'])} near groups, {len(report['exact'])} exact groups, {missed} of {len(planted)} planted copies missed", file=sys.stderr)
    commands = [("signalpath duplicates, 100 000 fingerprints", command)]
    groups = [("duplicates: 100 000 stored fingerprints of 120 s (issue 42)", commands, results, None)]
    targets = [
        ("duplicates over 100 000 fingerprints < 60 s", results[commands[0][0]]["median"], 60, "≤ s"),
        ("planted near copies missed by duplicates (of 1 000)", missed, 0, "≤"),
        ("peak RSS of duplicates over 100 000 fingerprints", rss, 400, "≤ MB"),
    ]
    return groups, targets


if __name__ == "__main__":
    print_part(*run(sys.argv[1], sys.argv[2]))
