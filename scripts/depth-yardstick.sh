#!/usr/bin/env bash
# The depth yardstick in one run (docs/real-data.md): `dualcam depth`
# unfiltered and filtered on Middlebury Aloe (opencv-doc) and on rendered
# room and office pairs (1920x1440, the nominal rig, depth at 768x576 like
# DepthAcceptanceTests), clean and under `--conditions real`, each scored by
# `dualcam eval` against the tele ground truth (nearest-resized). Prints one line per run. Fixtures are rendered once into
# $DUALCAM_YARDSTICK_DIR (default /tmp/dualcam-yardstick).
#   scripts/depth-yardstick.sh [path/to/dualcam]   (default: a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then
    swift build -c release --product dualcam >/dev/null
    bin=.build/release/dualcam
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
dir=${DUALCAM_YARDSTICK_DIR:-/tmp/dualcam-yardstick}
mkdir -p "$dir"
data=/usr/share/doc/opencv-doc/examples/data
calib=$PWD/Calibration/datasets/middlebury-aloe-calib.txt
cd "$dir"
for scene in room office; do
    for conditions in clean real; do
        out=$scene-$conditions
        [ -f "$out/tele.depth.pfm" ] || "$bin" synth --scene "$scene" --size 1920x1440 --conditions "$conditions" --out "$out" >/dev/null
    done
done

summary() {  # eval --json on stdin -> one line
    python3 -c '
import json, sys
r = json.load(sys.stdin); a = r["maps"][0]["scores"]["all"]
if "disparity" in a and a["disparity"]:
    d = a["disparity"]; b = {x["threshold_pixels"]: x for x in d["bad"]}
    print("cover %.3f  bad2 %6.2f %%  bad2/valid %6.2f %%  avgerr %.3f px" % (a["coverage"], 100*b[2]["fraction"], 100*b[2]["fraction_of_valid"], d["average_error_pixels"]))
else:
    d = a["depth"]
    print("cover %.3f  AbsRel %7.2f %%  d<1.05 %5.1f %%  d<1.25 %5.1f %%  RMSE %.3f m" % (a["coverage"], 100*d["absolute_relative_error"], 100*d["delta105"], 100*d["delta125"], d["rmse_metres"]))
'
}

for mode in unfiltered filtered; do
    start=$(date +%s.%N)
    "$bin" depth --wide $data/aloeL.jpg --tele $data/aloeR.jpg --calibration "$calib" --type pixels --size native \
        --mode $mode --min-depth 2.6714m -o aloe-$mode.pfm >/dev/null
    seconds=$(echo "$(date +%s.%N) - $start" | bc)
    printf '%-22s %-10s %s  (%.2f s)\n' aloe $mode "$("$bin" eval aloe-$mode.pfm --gt $data/aloeGT.png --region 224,0,1282,1110 --json | summary)" "$seconds"
done
for scene in room office; do
    for conditions in clean real; do
        f=$scene-$conditions
        for mode in unfiltered filtered; do
            start=$(date +%s.%N)
            "$bin" depth --wide $f/wide.png --tele $f/tele.png --calibration $f/calibration.yaml --size photo \
                --mode $mode -o $f-$mode.pfm >/dev/null
            seconds=$(echo "$(date +%s.%N) - $start" | bc)
            printf '%-22s %-10s %s  (%.2f s)\n' "$f" $mode "$("$bin" eval $f-$mode.pfm --gt $f/tele.depth.pfm --resize-gt --json | summary)" "$seconds"
        done
    done
done
