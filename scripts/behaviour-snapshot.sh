#!/usr/bin/env bash
# Behaviour snapshot for refactors that must not change results: runs a fixed
# set of dualcam jobs (converge, synth, depth filtered/unfiltered on renders and
# on Middlebury Aloe, fuse in three modes, homography, eval) with one binary,
# hashes every output file and keeps the printed reports.
#   scripts/behaviour-snapshot.sh BIN OUTDIR
# Compare two snapshots (before/after a change):
#   diff OLD/hashes.txt NEW/hashes.txt          (must be empty)
#   diff <(grep -v '^+' OLD/log.txt) <(grep -v '^+' NEW/log.txt)   (timings may differ)
# Needs opencv-doc (scripts/setup.sh). Takes about a minute with a release build.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 2 ] || { echo "usage: $0 BIN OUTDIR" >&2; exit 2; }
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "$0: $1: not an executable" >&2; exit 2; }
out=$2
rm -rf "$out"; mkdir -p "$out"; cd "$out" || exit 1
data=/usr/share/doc/opencv-doc/examples/data
aloe=(--wide $data/aloeL.jpg --tele $data/aloeR.jpg --calibration "$root/Calibration/datasets/middlebury-aloe-calib.txt"
      --type pixels --size native --min-depth 2.6714m)
run() { echo "+ $*" >> log.txt; "$@" >> log.txt 2>&1; echo "rc=$?" >> log.txt; }
run "$bin" converge --distance 1.2m -o conv-split.png
run "$bin" converge --distance auto --at 640,480 --view difference -o conv-auto.png
run "$bin" synth --scene room --size 640x480 --out room
run "$bin" synth --scene office --size 640x480 --conditions real --out office
run "$bin" synth --scene board --out board
room=(--wide room/wide.png --tele room/tele.png --calibration room/calibration.yaml)
run "$bin" depth "${room[@]}" -o room-depth.pfm --confidence room-conf.pfm
run "$bin" depth "${room[@]}" --mode unfiltered -o room-depth-u.pfm
run "$bin" depth --wide office/wide.png --tele office/tele.png --calibration office/calibration.yaml --reference wide -o office-depth.pfm
run "$bin" depth "${aloe[@]}" -o aloe-depth.pfm
run "$bin" depth "${aloe[@]}" --mode unfiltered -o aloe-depth-u.pfm
run "$bin" fuse "${room[@]}" --samples room/lidar.csv -o room-fused.pfm
run "$bin" fuse "${room[@]}" --samples room/lidar.csv --mode unfiltered -o room-fused-u.pfm
run "$bin" fuse --wide room/wide.png --samples room/lidar.csv --calibration room/calibration.yaml -o room-fused-s.pfm
run "$bin" homography --calibration room/calibration.yaml --distance 1.2m
for map in aloe-depth.pfm aloe-depth-u.pfm; do
    run "$bin" eval $map --gt $data/aloeGT.png --region 224,0,1282,1110 --json
done
run "$bin" eval room-depth.pfm --gt room/tele.depth.pfm --resize-gt --json
run "$bin" eval room-fused.pfm --gt room/wide.depth.pfm --resize-gt --json
find . -type f ! -name log.txt ! -name hashes.txt ! -name '*.json' -print0 | sort -z | xargs -0 sha256sum > hashes.txt
echo "$out: $(wc -l < hashes.txt) files hashed, $(grep -c '^rc=0' log.txt) of $(grep -c '^rc=' log.txt) jobs succeeded"
