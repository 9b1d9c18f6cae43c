#!/usr/bin/env bash
# Scans ARCHIVE over SHARDS Slurm array tasks, then merges: `submit.sh ARCHIVE RESULTS SHARDS`.
# RESULTS must be on storage every node sees. Prints the merge job's id.
set -euo pipefail
archive=$1 results=$2 shards=$3
here=$(dirname "$(realpath "$0")")
mkdir -p "$results"
array=$(sbatch --parsable --chdir="$results" --array="1-$shards" "$here/scan-array.sbatch" "$archive" "$results")
sbatch --parsable --chdir="$results" --dependency="afterok:$array" "$here/merge.sbatch" "$results"
