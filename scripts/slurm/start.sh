#!/usr/bin/env bash
# Starts a one-node Slurm cluster for the integration test, as root, in a
# state directory of its own (default /tmp/dualcam-slurm; its slurm.conf is
# used through SLURM_CONF, /etc/slurm is not touched):
#
#   bash scripts/slurm/start.sh [STATE]     prints SLURM_CONF=STATE/slurm.conf
#   bash scripts/slurm/stop.sh [STATE]      stops what this started, by pid
#
# munged (unless one already answers on its socket), slurmctld and slurmd run
# in the foreground in the background; their process ids go to STATE/*.pid
# and their logs to STATE/*.log. It waits (up to 60 s) for the node to be
# idle. A failure stops what was started and exits non-zero.
set -euo pipefail

state="${1:-${DUALCAM_SLURM_STATE:-/tmp/dualcam-slurm}}"
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$state"
state="$(cd "$state" && pwd)"

fail() {
    echo "slurm start: FAILED: $*" >&2
    for log in "$state"/*.log; do [ -f "$log" ] && { echo "--- $log" >&2; tail -5 "$log" >&2; }; done
    bash "$here/stop.sh" "$state" >&2 || true
    exit 1
}

# A daemon must not keep the caller's descriptors (beyond 0-2) open: a caller
# that waits for them to close (Foundation's Process does) would wait forever.
close_inherited() {
    local fd
    for fd in /proc/$BASHPID/fd/*; do
        fd="${fd##*/}"
        [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-" 2>/dev/null
    done
    return 0
}
# `daemon LOG CMD...`: CMD in the background (exec'd, so $! is its pid), stdin /dev/null, output to LOG.
daemon() {
    local log="$1"
    shift
    (close_inherited; exec "$@" </dev/null >>"$log" 2>&1) &
}

for pidfile in "$state"/*.pid; do
    [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null && fail "$pidfile: a daemon of an earlier start is still running; run scripts/slurm/stop.sh $state first"
done
rm -f "$state"/*.pid

# munge: authentication between the Slurm daemons and clients.
mkdir -p /run/munge /var/lib/munge /var/log/munge
chown munge:munge /run/munge /var/lib/munge /var/log/munge
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    # setpriv execs munged as the munge user (no fork): $! is the daemon itself.
    daemon "$state/munged.log" setpriv --reuid munge --regid munge --init-groups /usr/sbin/munged --foreground --force
    echo $! >"$state/munged.pid"
    for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
    munge -n | unmunge >/dev/null 2>&1 || fail "munged does not answer"
fi

host="$(hostname -s)"
mkdir -p "$state/ctld" "$state/slurmd"
cat >"$state/slurm.conf" <<CONF
ClusterName=dualcam-test
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/slurmd
SlurmctldPidFile=$state/slurmctld.pidfile
SlurmdPidFile=$state/slurmd.pidfile
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
NodeName=$host CPUs=$(nproc) RealMemory=4000 State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$state/slurm.conf"
daemon "$state/slurmctld.out" /usr/sbin/slurmctld -D -c -f "$SLURM_CONF"
echo $! >"$state/slurmctld.pid"
daemon "$state/slurmd.out" /usr/sbin/slurmd -D -f "$SLURM_CONF"
echo $! >"$state/slurmd.pid"
for _ in $(seq 120); do
    [ "$(sinfo -h -o %t 2>/dev/null | head -n1)" = idle ] && break
    sleep 0.5
done
[ "$(sinfo -h -o %t 2>/dev/null | head -n1)" = idle ] || fail "the node is not idle after 60 s (sinfo: $(sinfo -h 2>&1 | head -n1))"
echo "SLURM_CONF=$SLURM_CONF"
