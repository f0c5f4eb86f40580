#!/usr/bin/env bash
# A one-node Slurm cluster on loopback for trying and testing `mpg run --executor slurm`:
# munged + slurmctld + slurmd (Debian packages munge and slurm-wlm, installed by scripts/setup.sh),
# all state, sockets, logs and configuration under one directory, nothing in /etc touched.
#
#   scripts/slurm_local.sh start    configure and start the daemons; prints `export SLURM_CONF=...`
#   scripts/slurm_local.sh env      prints that export line again (eval "$(scripts/slurm_local.sh env)")
#   scripts/slurm_local.sh status   sinfo of the cluster
#   scripts/slurm_local.sh running  exit status 0 when all three daemons run
#   scripts/slurm_local.sh stop     stops the three daemons it started (by their pid files)
#
# The directory is $MPG_SLURM_DIR (default /tmp/mpg-slurm-$UID); ports 16817/16818 (override with
# MPG_SLURM_PORT, the controller's; slurmd takes the next). The node offers the machine's cores
# ($(nproc)), so an array runs at most that many cells at once. Exit status 1 when the daemons
# cannot start (e.g. no slurm-wlm): the message says why and where the logs are.
set -euo pipefail
dir="${MPG_SLURM_DIR:-/tmp/mpg-slurm-$(id -u)}"
port="${MPG_SLURM_PORT:-16817}"
conf="$dir/slurm.conf"
node=mpgnode

fail() { echo "slurm_local.sh: $*" >&2; exit 1; }

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

configure() {
  for program in munged slurmctld slurmd sbatch sinfo; do
    command -v "$program" >/dev/null || fail "$program is not installed (scripts/setup.sh installs munge and slurm-wlm)"
  done
  mkdir -p "$dir"/{state,spool,log,munge}
  chmod 700 "$dir/munge"
  if [ ! -f "$dir/munge/munge.key" ]; then
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$dir/munge/munge.key"
  fi
  local user cpus memory
  user="$(id -un)"
  cpus="$(nproc)"
  memory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))
  cat >"$conf" <<CONF
# Written by scripts/slurm_local.sh: a one-node cluster on loopback for mpg run --executor slurm.
ClusterName=mpglocal
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
LaunchType=launch/slurm
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
SlurmdTimeout=60
MaxArraySize=100001
MaxJobCount=200000
NodeName=$node NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
}

start() {
  configure
  if ! alive "$dir/munged.pid"; then
    munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
      --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munge.seed" \
      || fail "munged did not start (log: $dir/log/munged.log)"
  fi
  export SLURM_CONF="$conf"
  if ! alive "$dir/slurmctld.pid"; then
    slurmctld -f "$conf" -i || fail "slurmctld did not start (log: $dir/log/slurmctld.log)"
  fi
  if ! alive "$dir/slurmd.pid"; then
    slurmd -f "$conf" -N "$node" || fail "slurmd did not start (log: $dir/log/slurmd.log)"
  fi
  # Ready when the node is idle (or already running jobs).
  for _ in $(seq 1 60); do
    state="$(sinfo -h -N -n "$node" -o %T 2>/dev/null || true)"
    case "$state" in idle*|mixed*|allocated*) echo "export SLURM_CONF=$conf"; return 0 ;; esac
    sleep 0.5
  done
  fail "the node did not come up (state '${state:-none}'; logs in $dir/log/)"
}

stop() {
  for daemon in slurmd slurmctld munged; do
    if alive "$dir/$daemon.pid"; then
      kill "$(cat "$dir/$daemon.pid")"
      for _ in $(seq 1 50); do alive "$dir/$daemon.pid" || break; sleep 0.1; done
    fi
    rm -f "$dir/$daemon.pid"
  done
}

case "${1:-}" in
  start) start ;;
  env) [ -f "$conf" ] || fail "not configured: run scripts/slurm_local.sh start"; echo "export SLURM_CONF=$conf" ;;
  status) SLURM_CONF="$conf" sinfo ;;
  running) alive "$dir/munged.pid" && alive "$dir/slurmctld.pid" && alive "$dir/slurmd.pid" ;;
  stop) stop ;;
  *) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
