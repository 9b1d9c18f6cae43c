#!/usr/bin/env bash
# `make test-slurm`: the array recipe of docs/SCAN.md on a real one-node Slurm cluster started on
# this machine, over a generated archive; the merged database must equal one scan of the whole
# archive, row for row (every column but analyzed_at). Usage: test.sh SIGNALPATH WORKDIR [FILES] [SHARDS]
set -euo pipefail
signalpath=$(realpath "$1") work=$(realpath -m "$2") files=${3:-200} shards=${4:-4}
here=$(dirname "$(realpath "$0")")
repository=$(realpath "$here/../..")
rm -rf "$work" && mkdir -p "$work"
"$here/local-cluster.sh" start "$work/cluster" >/dev/null
trap '"$here/local-cluster.sh" stop "$work/cluster"' EXIT
export SLURM_CONF=$work/cluster/slurm.conf SIGNALPATH=$signalpath
python3 "$repository/Tests/Reference/scan_tree.py" "$work/archive" 41 "$files" >/dev/null
echo "archive: $(find "$work/archive" -type f | wc -l) files; cluster: $(sinfo -h -o '%D node, %c CPUs, partition %P')"
started=$(date +%s.%N)
merge=$("$here/submit.sh" "$work/archive" "$work/results" "$shards")
echo "submitted: array of $shards scan tasks, merge job $merge (afterok)"
for _ in $(seq 1 600); do
  state=$(scontrol show job "$merge" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  case "$state" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) break ;; esac
  sleep 0.5
done
ended=$(date +%s.%N)
echo "merge job: $state after $(python3 -c "print(round($ended - $started, 1))") s"
for log in "$work/results"/signalpath-scan-*.log; do
  python3 -c "import json,sys; t=open(sys.argv[1]).read(); s=json.loads(t[t.index('{'):]); print(f\"  {sys.argv[1].rsplit('/',1)[1]}: {s['analysed']} analysed, {s['failed']} failed, {s['commits']} commits\")" "$log"
done
cat "$work/results"/signalpath-merge-*.log
[ "$state" = COMPLETED ] || { echo "the merge job did not complete" >&2; exit 1; }
"$signalpath" scan "$work/archive" --db "$work/single.db" --format json >/dev/null 2>&1 || [ $? -eq 65 ]
python3 "$here/compare.py" "$work/single.db" "$work/results/all.db"
echo "test-slurm: the merged shards equal the single run"
