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
sign (too near = larger disparity than the truth). Also prints, for pixels
overtaken by more than 0.5, 1 and 2 px (half-occluded beyond doubt), their
share, the highest coverage a map of measurements only can reach (eval's
coverage counts them), UNFILTERED's coverage of the rest and its values there.
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


def overtaken_by(gt):
    """Per left-view pixel with known ground truth: how far left of its own
    match x - d in the right view a pixel further right lands (the largest
    x - d - (x' - d') over x' > x; a nearer surface overtook it when > 0),
    -inf where none does or the truth is unknown."""
    by = np.full(gt.shape, -np.inf)
    xr = np.arange(gt.shape[1])[None, :] - gt
    for y in range(gt.shape[0]):
        # Running minimum of x - d over the known pixels to the right.
        row = np.where(gt[y] > 0, xr[y], np.inf)
        right_min = np.minimum.accumulate(row[::-1])[::-1]
        right_min = np.append(right_min[1:], np.inf)
        by[y] = np.where(gt[y] > 0, xr[y] - right_min, -np.inf)
    return by


def half_occluded(by):
    """Left-view pixels (`by`: `overtaken_by(gt)`) whose ground-truth match
    x - d in the right view is taken by a pixel further right (nearer, since
    it overtook them), or comes within half a pixel of one."""
    return by >= -0.5


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
    by = overtaken_by(gt)
    occluded = half_occluded(by)
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
    bad = measured & (np.abs(unfiltered - gt) > 2)
    print(f"  UNFILTERED: {measured.sum()} measured pixels, {bad.sum()} of them more than 2 px off")
    for margin in (0.5, 1.0, 2.0):
        occ = (by > margin) & known
        print(f"  overtaken by more than {margin} px: {100 * occ.sum() / known.sum():.1f} % of the"
              f" {known.sum()} known pixels; highest coverage of measurements {1 - occ.sum() / known.sum():.4f};"
              f" UNFILTERED covers {(measured & ~occ).sum() / (known & ~occ).sum():.4f} of the rest,"
              f" measures {(measured & occ).sum()} of them, {(bad & occ).sum()} more than 2 px off"
              f" ({(bad & occ & (unfiltered > gt)).sum()} too near)")

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
