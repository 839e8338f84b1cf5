#!/usr/bin/env bash
# Installs what dualcam needs on a Debian machine that already has Swift, and
# skips whatever is already there (safe to run any number of times).
#   libopencv-dev   OpenCV 4.6 with contrib (ximgproc, aruco), behind the C++ shim
#   liblapacke-dev  LAPACKE, used through a pkg-config system library
#   pkg-config      how SwiftPM finds both
#   opencv-doc      OpenCV's sample data (stereo chessboard set) used by tests
# With DUALCAM_VIVID=1 (set by .ci/run) it also runs scripts/vivid/setup.sh: qemu,
# busybox and Debian's kernel for the V4L2 integration test; with DUALCAM_SLURM=1
# scripts/slurm/setup.sh: Slurm and munge for the batch integration test.
set -euo pipefail

packages=(libopencv-dev liblapacke-dev pkg-config opencv-doc)
missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
    echo "setup: system packages already present" >&2
fi

if ! command -v swift >/dev/null 2>&1; then
    echo "setup: swift is not on PATH; install Swift 6.1 or newer (https://swift.org/install)" >&2
    exit 1
fi
pkg-config --exists opencv4 lapacke || { echo "setup: pkg-config cannot find opencv4/lapacke" >&2; exit 1; }

if [ "${DUALCAM_VIVID:-}" = 1 ]; then
    bash "$(dirname "$0")/vivid/setup.sh"
fi

if [ "${DUALCAM_SLURM:-}" = 1 ]; then
    bash "$(dirname "$0")/slurm/setup.sh"
fi
