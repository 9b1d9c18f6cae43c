#!/usr/bin/env bash
# A one-node Slurm cluster on this machine (slurmctld + slurmd on localhost, munge for
# authentication), for `make test-slurm`. Needs root (slurmd runs jobs as their users) and the
# Debian packages slurm-wlm and munge. `local-cluster.sh start DIR` writes the configuration and
# state into DIR and prints the SLURM_CONF to export; `local-cluster.sh stop DIR` ends the daemons.
set -euo pipefail
action=$1 dir=$(realpath -m "$2")
host=$(hostname -s)
cpus=$(nproc)

if [ "$action" = stop ]; then
  for daemon in slurmd slurmctld; do
    [ -f "$dir/$daemon.pid" ] && kill "$(cat "$dir/$daemon.pid")" 2>/dev/null || true
  done
  exit 0
fi

mkdir -p "$dir/state" "$dir/spool" "$dir/log"
# munge: one key for the machine; the daemon is started once.
if [ ! -f /etc/munge/munge.key ]; then
  mkdir -p /etc/munge && dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
  chown munge:munge /etc/munge/munge.key 2>/dev/null || true
  chmod 400 /etc/munge/munge.key
fi
mkdir -p /run/munge && chown munge:munge /run/munge 2>/dev/null || true
if ! munge -n </dev/null >/dev/null 2>&1; then
  if id munge >/dev/null 2>&1; then runuser -u munge -- munged --force; else munged --force; fi
fi

cat > "$dir/slurm.conf" <<CONF
ClusterName=signalpath-local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
slurmctld -i
slurmd
# Wait until the node takes jobs.
for _ in $(seq 1 100); do
  state=$(sinfo -h -N -o %T 2>/dev/null | head -1 || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$(sinfo -h -N -o %T | head -1)" = idle ] || { echo "slurm did not come up:" >&2; tail -5 "$dir/log/"*.log >&2; exit 1; }
echo "export SLURM_CONF=$dir/slurm.conf"
