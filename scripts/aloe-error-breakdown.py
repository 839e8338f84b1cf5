#!/usr/bin/env python3
"""Where a disparity map's average error on Middlebury Aloe comes from.

    scripts/aloe-error-breakdown.py FILTERED.pfm UNFILTERED.pfm GT.pfm

FILTERED / UNFILTERED: `dualcam depth --type pixels --size native` maps of
aloeL/aloeR (as in scripts/depth-yardstick.sh); GT.pfm: aloeGT.png as PFM
(`dualcam image convert aloeGT.png GT.pfm`; 0 = unknown). Scored like
`dualcam eval --region 224,0,1282,1110`: x >= 224, known ground truth, a
value in FILTERED. Splits the average error (px) by where the pixel is
(half-occluded by the ground truth's own disparities, a band of 3 px around
its depth edges, interior) and whether UNFILTERED measured it, and the
unmeasured pixels by the width of their row run of holes and the error's
sign (too near = larger disparity than the truth). Also prints the share of
half-occluded pixels, the highest coverage a map of measurements only can
reach (eval's coverage counts them), and UNFILTERED's coverage of the rest.
Needs python3-numpy;
a measuring aid (docs/real-data.md), not part of the test suite.
"""
import sys
import numpy as np


def read_pfm(path):
    with open(path, "rb") as f:
        kind = f.readline().strip()
        width, height = map(int, f.readline().split())
        scale = float(f.readline())
        data = np.frombuffer(f.read(), dtype="<f4" if scale < 0 else ">f4")
    if kind != b"Pf":
        sys.exit(f"{path}: expected a 1-channel PFM")
    return np.flipud(data.reshape(height, width)).astype(np.float64)


def half_occluded(gt, margin=-0.5):
    """Left-view pixels whose ground-truth match x - d in the right view is
    taken by a pixel further right (nearer, since it overtook them): one
    whose x - d is at most the pixel's own minus `margin` (-0.5: within half
    a pixel of it counts too; 0.5, 1, 2: overtaken by more than that)."""
    occluded = np.zeros(gt.shape, bool)
    xr = np.arange(gt.shape[1])[None, :] - gt
    for y in range(gt.shape[0]):
        # Running minimum of x - d over the known pixels to the right.
        row = np.where(gt[y] > 0, xr[y], np.inf)
        right_min = np.minimum.accumulate(row[::-1])[::-1]
        right_min = np.append(right_min[1:], np.inf)
        occluded[y] = (gt[y] > 0) & (xr[y] > right_min + margin)
    return occluded


def hole_run_widths(holes):
    widths = np.zeros(holes.shape)
    for y in range(holes.shape[0]):
        row = np.concatenate(([False], holes[y], [False])).astype(np.int8)
        starts = np.flatnonzero(np.diff(row) == 1)
        ends = np.flatnonzero(np.diff(row) == -1)
        for s, e in zip(starts, ends):
            widths[y, s:e] = e - s
    return widths


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    filtered, unfiltered, gt = (read_pfm(p) for p in sys.argv[1:])
    if not (filtered.shape == unfiltered.shape == gt.shape):
        sys.exit("the three maps must have the same size")
    scored = (gt > 0) & np.isfinite(filtered)
    scored[:, :224] = False
    signed = np.where(scored, filtered - gt, 0.0)
    error = np.abs(signed)
    n = scored.sum()
    holes = ~np.isfinite(unfiltered)
    occluded = half_occluded(gt)
    step = np.zeros(gt.shape, bool)
    step[:, 1:] |= np.abs(np.diff(gt, axis=1)) > 2
    step[1:, :] |= np.abs(np.diff(gt, axis=0)) > 2
    band = step.copy()
    for _ in range(3):  # dilate by 3 px (4-neighbour steps)
        grown = band.copy()
        grown[1:, :] |= band[:-1, :]; grown[:-1, :] |= band[1:, :]
        grown[:, 1:] |= band[:, :-1]; grown[:, :-1] |= band[:, 1:]
        band = grown
    print(f"avgerr {error[scored].mean():.3f} px over {n} pixels")
    # `dualcam eval`'s coverage counts every known ground-truth pixel of the
    # region; the right view does not see the half-occluded ones, so a map of
    # measurements only covers at most the rest.
    known = gt > 0
    known[:, :224] = False
    measured = known & ~holes
    for margin in (0.5, 1.0, 2.0):
        occ = half_occluded(gt, margin) & known
        print(f"  half-occluded by more than {margin} px: {100 * occ.sum() / known.sum():.1f} % of the"
              f" {known.sum()} known pixels; highest coverage of measurements {1 - occ.sum() / known.sum():.4f};"
              f" UNFILTERED covers {(measured & ~occ).sum() / (known & ~occ).sum():.4f} of the rest"
              f" and measures {(measured & occ).sum()} half-occluded pixels")

    def line(name, mask):
        m = scored & mask
        near = m & (signed > 2)
        far = m & (signed < -2)
        print(f"  {name:<34} share {100 * m.sum() / n:5.1f} %  mean {error[m].mean() if m.any() else 0:6.3f} px"
              f"  contributes {error[m].sum() / n:.3f} px (too near {error[near].sum() / n:.3f},"
              f" too far {error[far].sum() / n:.3f})")

    for where, mask in [("half-occluded", occluded), ("depth-edge band", band & ~occluded),
                        ("interior", ~band & ~occluded)]:
        line(where + ", measured", mask & ~holes)
        line(where + ", unmeasured", mask & holes)
    widths = hole_run_widths(holes)
    for low, high in [(0, 10), (10, 30), (30, 60), (60, 120), (120, 1 << 30)]:
        line(f"unmeasured, row run {low}-{high if high < 1 << 30 else 'more'} px", holes & (widths > low) & (widths <= high))


main()
