#!/usr/bin/env python3
"""`compare.py A.db B.db`: the two scan databases hold the same rows, every column but analyzed_at
(read by Python's own sqlite3). Prints the row counts and exits 1 on a difference."""
import sqlite3, sys

def rows(path):
    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    out = {}
    for row in db.execute("SELECT * FROM files"):
        record = dict(row)
        record.pop("analyzed_at")
        out[record["path"]] = record
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok", path
    return out

a, b = rows(sys.argv[1]), rows(sys.argv[2])
different = sorted(p for p in set(a) | set(b) if a.get(p) != b.get(p))
print(f"{sys.argv[1]}: {len(a)} rows; {sys.argv[2]}: {len(b)} rows; {len(different)} differ")
for path in different[:5]:
    print("  differs:", path, file=sys.stderr)
sys.exit(1 if different else 0)
