#!/usr/bin/env bash
# Prepares the V4L2 integration test (docs/capture.md, "V4L2 integration test"): installs
# qemu-system-x86 and busybox-static, downloads Debian's kernel image package
# (linux-image-amd64's dependency, which ships vivid.ko) with `apt-get download`
# and unpacks only the kernel and its media modules into a cache directory.
# Idempotent: skips what is already there. Any failure is loud and non-zero.
#
#   DUALCAM_VIVID_CACHE   cache directory (default /tmp/dualcam-vivid)
#
# Prints nothing on stdout; the kernel directory is written to
# $DUALCAM_VIVID_CACHE/kernel (boot/vmlinuz-*, lib/modules/*/kernel/drivers/media).
set -euo pipefail

cache="${DUALCAM_VIVID_CACHE:-/tmp/dualcam-vivid}"

fail() {
    echo "vivid setup: FAILED: $*" >&2
    echo "vivid setup: the V4L2 integration test cannot run without qemu-system-x86, busybox-static and Debian's linux-image package" >&2
    exit 1
}

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"

packages=(qemu-system-x86 busybox-static)
missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

updated=0
if [ ${#missing[@]} -gt 0 ]; then
    echo "vivid setup: installing ${missing[*]}" >&2
    $sudo apt-get update -qq || fail "apt-get update"
    updated=1
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
        || fail "apt-get install ${missing[*]}"
fi
command -v qemu-system-x86_64 >/dev/null || fail "qemu-system-x86_64 is not on PATH after installing qemu-system-x86"
[ -x /bin/busybox ] || fail "/bin/busybox is missing after installing busybox-static"

kernel="$cache/kernel"
if ls "$kernel"/boot/vmlinuz-* >/dev/null 2>&1 && [ -f "$kernel/.complete" ]; then
    echo "vivid setup: kernel already unpacked in $kernel" >&2
    exit 0
fi

mkdir -p "$cache"
# linux-image-amd64 is a metapackage; its dependency names the real image package.
image=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
if [ -z "$image" ] && [ "$updated" -eq 0 ]; then
    $sudo apt-get update -qq || fail "apt-get update"
    updated=1
    image=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
fi
[ -n "$image" ] || fail "apt-cache cannot resolve linux-image-amd64 to a kernel image package"

deb=$(ls "$cache"/"$image"_*.deb 2>/dev/null | head -n1 || true)
if [ -z "$deb" ]; then
    echo "vivid setup: downloading $image" >&2
    (cd "$cache" && apt-get download "$image" >/dev/null 2>&1) || {
        # A stale package list names a version the mirror no longer has: refresh once.
        [ "$updated" -eq 0 ] && $sudo apt-get update -qq && updated=1
        (cd "$cache" && apt-get download "$image" >/dev/null) || fail "apt-get download $image"
    }
    deb=$(ls "$cache"/"$image"_*.deb 2>/dev/null | head -n1 || true)
    [ -n "$deb" ] || fail "apt-get download $image left no .deb in $cache"
fi

# Unpack only what the VM needs: the kernel and the media modules (the whole
# package is several hundred MB unpacked).
echo "vivid setup: unpacking $(basename "$deb")" >&2
unpack=$(mktemp -d "$cache/kernel.XXXXXX") && chmod 755 "$unpack"
dpkg-deb --fsys-tarfile "$deb" \
    | tar -x -C "$unpack" --wildcards './boot/vmlinuz-*' './lib/modules/*/kernel/drivers/media/*' \
    || { rm -rf "$unpack"; fail "unpacking $deb"; }
ls "$unpack"/boot/vmlinuz-* >/dev/null 2>&1 || { rm -rf "$unpack"; fail "$deb holds no boot/vmlinuz-*"; }
find "$unpack" -name 'vivid.ko*' | grep -q . || { rm -rf "$unpack"; fail "$deb holds no vivid.ko"; }
touch "$unpack/.complete"
rm -rf "$kernel"
mv "$unpack" "$kernel"
rm -f "$deb"  # 70 MB; the unpacked kernel is all the VM needs
echo "vivid setup: kernel ready in $kernel" >&2
