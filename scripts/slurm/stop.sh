#!/usr/bin/env bash
# Stops the daemons scripts/slurm/start.sh started, by the process ids it
# wrote to STATE/*.pid (SIGTERM, then SIGKILL after 10 s); nothing else.
set -uo pipefail
state="${1:-${DUALCAM_SLURM_STATE:-/tmp/dualcam-slurm}}"
for name in slurmd slurmctld munged; do
    pidfile="$state/$name.pid"
    [ -f "$pidfile" ] || continue
    pid="$(cat "$pidfile")"
    if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    fi
    rm -f "$pidfile"
done
exit 0
