#!/usr/bin/env bash
# Installs what the Slurm integration test needs (docs/batch.md):
# Debian's slurmctld, slurmd, slurm-client and munge, and a munge key.
# Idempotent: skips what is there. Any failure is loud and non-zero.
# (From the one-node recipe checked on these machines; nothing is started here:
# scripts/slurm/start.sh starts the daemons, scripts/slurm/stop.sh stops them.)
set -euo pipefail

fail() {
    echo "slurm setup: FAILED: $*" >&2
    echo "slurm setup: the Slurm integration test needs Debian's slurmctld, slurmd, slurm-client and munge" >&2
    exit 1
}

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"

packages=(slurmctld slurmd slurm-client munge)
missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "slurm setup: installing ${missing[*]}" >&2
    $sudo apt-get update -qq || fail "apt-get update"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
        || fail "apt-get install ${missing[*]}"
else
    echo "slurm setup: slurm and munge already installed" >&2
fi
for tool in slurmctld slurmd munged sbatch sinfo squeue scancel; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || fail "$tool is not installed"
done
if [ ! -f /etc/munge/munge.key ]; then
    $sudo mkdir -p /etc/munge
    $sudo dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none || fail "writing /etc/munge/munge.key"
fi
$sudo chown munge:munge /etc/munge/munge.key && $sudo chmod 400 /etc/munge/munge.key || fail "munge key permissions"
