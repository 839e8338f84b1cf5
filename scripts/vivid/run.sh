#!/usr/bin/env bash
# Boots Debian's kernel in qemu (software emulation) with a small initramfs that
# holds busybox, vivid and its module chain, and PROBE (plus the shared libraries
# `ldd` lists for it); /init loads `vivid n_devs=2 node_types=0x1,0x1` (two
# video-capture devices) and runs `PROBE /dev/video0 /dev/video1 ARGS...`.
#
#   bash scripts/vivid/run.sh PROBE [ARGS...]
#
# stdout: the probe's result lines (those starting with VIVID_) and
#   VIVID_PROBE_EXIT=<status>, VIVID_BOOT_SECONDS=<qemu wall time>.
# exit status: 0 when the probe exited 0; non-zero with a loud message on stderr
# (and the tail of the guest console) when anything else happened: no kernel
# (run scripts/vivid/setup.sh first), module load failure, no /dev/video*, no
# result line, timeout.
#
#   DUALCAM_VIVID_CACHE    kernel cache written by setup.sh (default /tmp/dualcam-vivid)
#   DUALCAM_VIVID_TIMEOUT  seconds before qemu is killed (default 300)
#   DUALCAM_VIVID_LOG      where the full guest console is kept (default: a temp file)
set -euo pipefail

fail() {
    echo "vivid run: FAILED: $*" >&2
    exit 1
}

[ $# -ge 1 ] || fail "usage: run.sh PROBE [ARGS...]"
probe="$1"; shift
[ -x "$probe" ] || fail "probe $probe is not an executable file"

cache="${DUALCAM_VIVID_CACHE:-/tmp/dualcam-vivid}"
kernel="$cache/kernel"
timeout_s="${DUALCAM_VIVID_TIMEOUT:-300}"
[ -f "$kernel/.complete" ] || fail "no unpacked kernel in $kernel; run: bash scripts/vivid/setup.sh"
vmlinuz=$(ls "$kernel"/boot/vmlinuz-* | head -n1)
moddir=$(ls -d "$kernel"/lib/modules/*/kernel | head -n1)
command -v qemu-system-x86_64 >/dev/null || fail "qemu-system-x86_64 not found; run: bash scripts/vivid/setup.sh"
[ -x /bin/busybox ] || fail "/bin/busybox not found; run: bash scripts/vivid/setup.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/dualcam-vivid-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
root="$work/root"
mkdir -p "$root"/{bin,mods,proc,sys,dev,tmp}
cp /bin/busybox "$root/bin/busybox"

# vivid's module chain in dependency order, read from each module's depends= string.
declare -A seen=()
order=()
add_module() {
    local name="$1" file deps d
    [ -n "${seen[$name]:-}" ] && return 0
    seen[$name]=1
    file=$(find "$moddir" -name "$name.ko" -o -name "${name//-/_}.ko" | head -n1)
    [ -n "$file" ] || fail "module $name.ko not found under $moddir"
    deps=$(grep -a -o 'depends=[A-Za-z0-9_,-]*' "$file" | head -n1 | cut -d= -f2)
    for d in ${deps//,/ }; do add_module "$d"; done
    cp "$file" "$root/mods/"
    order+=("$(basename "$file" .ko)")
}
add_module vivid

# The probe and the shared libraries it needs (none for a static binary).
cp "$probe" "$root/probe"
if ldd "$probe" >/dev/null 2>&1; then
    ldd "$probe" | awk '/=>/ && $3 ~ /^\// {print $3} !/=>/ && $1 ~ /^\// {print $1}' | while read -r lib; do
        cp -L --parents "$lib" "$root/"
    done
fi

{
    echo '#!/bin/busybox sh'
    echo '/bin/busybox --install -s /bin'
    echo 'export PATH=/bin'
    echo 'mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev'
    echo 'echo "VIVID_GUEST_START=$(cut -d" " -f1 /proc/uptime)"'
    for m in "${order[@]}"; do
        if [ "$m" = vivid ]; then
            echo "insmod /mods/vivid.ko n_devs=2 node_types=0x1,0x1 || echo VIVID_INSMOD_FAILED=vivid"
        else
            echo "insmod /mods/$m.ko || echo VIVID_INSMOD_FAILED=$m"
        fi
    done
    echo 'for i in 1 2 3 4 5 6 7 8 9 10; do [ -e /dev/video1 ] && break; sleep 0.2; done'
    echo 'echo "VIVID_DEVICES=$(ls /dev/video* 2>/dev/null | tr "\n" " ")"'
    printf '/probe /dev/video0 /dev/video1'
    for a in "$@"; do printf " '%s'" "$a"; done
    echo
    echo 'echo "VIVID_PROBE_EXIT=$?"'
    echo 'echo "VIVID_GUEST_END=$(cut -d" " -f1 /proc/uptime)"'
    echo 'poweroff -f'
} > "$root/init"
chmod +x "$root/init"

(cd "$root" && find . | /bin/busybox cpio -o -H newc 2>/dev/null | gzip -1 > "$work/initrd.gz") \
    || fail "building the initramfs"

log="${DUALCAM_VIVID_LOG:-$work/console.log}"
start=$(date +%s.%N)
set +e
timeout --kill-after=10 "$timeout_s" qemu-system-x86_64 \
    -accel tcg -cpu max -m 1024 -smp 1 -nographic -no-reboot -nodefaults -serial stdio \
    -kernel "$vmlinuz" -initrd "$work/initrd.gz" \
    -append "console=ttyS0 quiet panic=-1 rdinit=/init" < /dev/null > "$log" 2>&1
qemu_status=$?
set -e
end=$(date +%s.%N)
tr -d '\r' < "$log" > "$log.clean" && mv "$log.clean" "$log"

tail_log() { echo "---- guest console (last 40 lines) ----" >&2; tail -n 40 "$log" >&2; echo "----" >&2; }
[ "$qemu_status" -eq 124 ] || [ "$qemu_status" -eq 137 ] && { tail_log; fail "qemu did not finish within ${timeout_s}s"; }
[ "$qemu_status" -eq 0 ] || { tail_log; fail "qemu exited with status $qemu_status"; }
if grep -q 'VIVID_INSMOD_FAILED=' "$log"; then tail_log; fail "loading $(grep -m1 'VIVID_INSMOD_FAILED=' "$log" | cut -d= -f2).ko failed in the guest"; fi
grep -q 'VIVID_DEVICES=.*/dev/video1' "$log" || { tail_log; fail "the guest has no /dev/video0 and /dev/video1 after loading vivid"; }
grep -q 'VIVID_PROBE_EXIT=' "$log" || { tail_log; fail "the probe did not finish (no VIVID_PROBE_EXIT line)"; }

grep -o 'VIVID_[A-Z_]*[= ].*' "$log"
echo "VIVID_BOOT_SECONDS=$(awk -v s="$start" -v e="$end" 'BEGIN {printf "%.1f", e - s}')"
status=$(grep -m1 'VIVID_PROBE_EXIT=' "$log" | cut -d= -f2)
if [ "$status" != 0 ]; then tail_log; fail "the probe exited with status $status"; fi
