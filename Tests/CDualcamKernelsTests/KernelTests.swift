import CDualcamKernels
import TestSupport
import XCTest

/// dualcam's C++ kernels through their C API, on small buffers with known answers.
final class KernelTests: XCTestCase {
    private func message(_ error: dck_error) -> String {
        withUnsafeBytes(of: error.message) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
    }

    /// A textured grey image f(x, y) (float, smooth enough for bilinear resampling).
    private func texture(_ x: Float, _ y: Float) -> Float {
        100 + 40 * sin(0.7 * x + 0.3 * y) + 25 * sin(0.23 * x - 0.5 * y) + 10 * cos(1.3 * y + 0.2 * x)
    }

    private func centralDifference(_ image: [Float], cols: Int) -> [Float] {
        var dx = [Float](repeating: 0, count: image.count)
        for i in image.indices {
            let x = i % cols
            let left = image[x > 0 ? i - 1 : i + 1], right = image[x + 1 < cols ? i + 1 : i - 1]
            dx[i] = (right - left) / 2
        }
        return dx
    }

    func testLeftRightCheckKeepsConsistentMatchesOnly() {
        let cols = 8, rows = 1
        var ref: [Float] = [.nan, 2, 2, 2, 2, 2, 2, 2]
        // x - d for the reference pixels 2...7 is 0...5; the other view agrees
        // except at 3 (x 5) and has no value at 4 (x 6).
        let other: [Float] = [2, 2.4, 2, 5, .nan, 2, 2, 2]
        var conf = [Float](repeating: 0, count: cols)
        var error = dck_error()
        let status = dck_left_right_check(&ref, other, &conf, cols, Int32(cols), Int32(rows), nil, nil, 0, 1, 1, &error)
        XCTAssertEqual(status, Int32(DCK_OK))
        XCTAssertTrue(ref[0].isNaN && ref[1].isNaN, "x - d leaves the image")
        XCTAssertEqual(ref[2], 2)
        XCTAssertEqual(conf[2], 1, accuracy: 1e-6, "exact agreement: full confidence")
        XCTAssertEqual(conf[3], 1 - 0.5 * 0.4 * 0.4, accuracy: 1e-5, "0.4 px apart with tolerance 1")
        XCTAssertTrue(ref[5].isNaN, "the other view says 5: inconsistent")
        XCTAssertTrue(ref[6].isNaN, "the other view has no value")
        XCTAssertEqual(conf[5], 0)
        var zero = dck_error()
        XCTAssertEqual(dck_left_right_check(&ref, other, &conf, cols, Int32(cols), 1, nil, nil, 0, 1, 0, &zero),
                       Int32(DCK_ERR_ARGUMENT))
        XCTAssertTrue(message(zero).contains("tolerance"), message(zero))
    }

    /// A match landing half-way between two pixels of the other view takes
    /// the one away from zero (std::lround); one landing far outside the
    /// row is no match.
    func testLeftRightCheckRoundsHalfPixelsAwayFromZero() {
        let cols = 6
        // x - d: -0.5 (-1: outside), 6.6 (7: outside), 0.5 (pixel 1), NaN, -1e10, 4.5 (5).
        var ref: [Float] = [0.5, -5.6, 1.5, .nan, 1e10, 0.5]
        // Only the pixel away from zero agrees: pixel 0 for x 0 (rounding
        // -0.5 up), 0 for x 2 and 4 for x 5 (rounding half to even) would not.
        let other: [Float] = [0.5, 1.5, 7, 7, 9, 0.5]
        var conf = [Float](repeating: 0, count: cols)
        var error = dck_error()
        XCTAssertEqual(dck_left_right_check(&ref, other, &conf, cols, Int32(cols), 1, nil, nil, 0, 1, 0.2, &error),
                       Int32(DCK_OK))
        XCTAssertTrue(ref[0].isNaN, "-0.5 rounds to -1, outside the row (rounding up would match pixel 0)")
        XCTAssertTrue(ref[1].isNaN, "6.6 rounds to 7, past the row's end")
        XCTAssertEqual(ref[2], 1.5, "0.5 rounds to pixel 1")
        XCTAssertTrue(ref[4].isNaN, "far outside the row")
        XCTAssertEqual(ref[5], 0.5, "4.5 rounds to pixel 5")
    }

    /// Whole-pixel disparities of a pair shifted by 2.3 px refine to 2.3.
    func testRefinementFindsTheSubpixelShift() {
        let cols = 48, rows = 24, shift: Float = 2.3
        var base = [Float](), match = [Float]()
        for y in 0..<rows {
            for x in 0..<cols {
                base.append(texture(Float(x), Float(y)))
                match.append(texture(Float(x) + shift, Float(y)))  // x_match = x_base - d
            }
        }
        let baseDx = centralDifference(base, cols: cols), matchDx = centralDifference(match, cols: cols)
        let sgbm = [Float](repeating: 2, count: cols * rows)
        var ref = sgbm, conf = [Float](repeating: 1, count: cols * rows)
        var error = dck_error()
        let status = base.withUnsafeBufferPointer { b in
            match.withUnsafeBufferPointer { m in
                baseDx.withUnsafeBufferPointer { bdx in
                    matchDx.withUnsafeBufferPointer { mdx in
                        sgbm.withUnsafeBufferPointer { d in
                            ref.withUnsafeMutableBufferPointer { r in
                                conf.withUnsafeMutableBufferPointer { c in
                                    var job = dck_refine_job(
                                        base: b.baseAddress, match: m.baseAddress, base_dx: bdx.baseAddress,
                                        match_dx: mdx.baseAddress, disparity: d.baseAddress, ref: r.baseAddress,
                                        conf: c.baseAddress, mask: nil, stride: cols, cols: Int32(cols), rows: Int32(rows),
                                        sign: 1, radius: 3, texture_sigma: 2, min_zncc: 0.5, sigma: nil)
                                    return dck_refine_rows(&job, 0, Int32(rows), &error)
                                }
                            }
                        }
                    }
                }
            }
        }
        XCTAssertEqual(status, Int32(DCK_OK), message(error))
        // Interior pixels (the window and the shift stay inside the image).
        var checked = 0
        for y in 4..<(rows - 4) {
            for x in 8..<(cols - 8) {
                let i = y * cols + x
                XCTAssertEqual(ref[i], shift, accuracy: 0.05, "pixel \(x), \(y)")
                XCTAssertGreaterThan(conf[i], 0.5, "pixel \(x), \(y)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 300)
        XCTAssertTrue(ref[0].isNaN, "the window at the corner leaves the image: no refinement")
    }

    /// A 2x2 island of values (and a lone pixel) in an empty map goes with its
    /// confidence; a 4x5 region whose steps stay within the difference stays,
    /// and so does a 2x2 island when the size limit is below it.
    func testIslandRemovalDropsSmallRegionsOnly() {
        let cols = 10, rows = 8
        var d = [Float](repeating: .nan, count: cols * rows), conf = [Float](repeating: 0.8, count: cols * rows)
        for y in 1..<5 { for x in 1..<6 { d[y * cols + x] = 5 + 0.5 * Float(x) } }  // steps of 0.5 px
        for y in 5..<7 { for x in 7..<9 { d[y * cols + x] = 9 } }
        d[7 * cols + 0] = 3
        d[1 * cols + 6] = 9  // touches the region but 1.5 px off: an island of one
        let original = d
        var error = dck_error()
        XCTAssertEqual(dck_remove_islands(&d, &conf, cols, Int32(cols), Int32(rows), 4, 1, &error), Int32(DCK_OK),
                       message(error))
        for i in d.indices {
            let x = i % cols, y = i / cols
            if (1..<5).contains(y) && (1..<6).contains(x) {
                XCTAssertEqual(d[i], original[i], "region pixel \(x), \(y)")
                XCTAssertEqual(conf[i], 0.8)
            } else {
                XCTAssertTrue(d[i].isNaN, "pixel \(x), \(y)")
                if !original[i].isNaN { XCTAssertEqual(conf[i], 0, "pixel \(x), \(y)") }
            }
        }
        var kept = original, keptConf = [Float](repeating: 0.8, count: cols * rows)
        XCTAssertEqual(dck_remove_islands(&kept, &keptConf, cols, Int32(cols), Int32(rows), 3, 1, &error), Int32(DCK_OK))
        XCTAssertEqual(kept[5 * cols + 7], 9, "the 2x2 island has 4 > 3 pixels")
        XCTAssertTrue(kept[7 * cols + 0].isNaN)
        XCTAssertEqual(dck_remove_islands(&kept, &keptConf, cols, Int32(cols), Int32(rows), -1, 1, &error),
                       Int32(DCK_ERR_ARGUMENT))
        XCTAssertTrue(message(error).contains("island"), message(error))
    }

    /// A scene (left reference, x_right = x - d), 120 px wide: a background
    /// at 5 px, a foreground at 20 px over columns 60..<100, and in it a hole
    /// at 5 px over columns 66..<70, rows 2..<5. The hole lands at 61..64 in
    /// the right view, where the foreground right of it lands (50..<80): the
    /// right view sees the foreground there, and the hole's region goes. The
    /// background left of the foreground keeps its half-occluded pixels (x
    /// 47..<60 land at 42..<55, inside the foreground's 40..<80): at most 13
    /// of its 60 pixels per row, less than half. The mirrored scene with the
    /// right view as the reference gives the mirrored result.
    func testOccludedRegionsGoAndHalfOccludedBordersStay() {
        let cols = 120, rows = 6
        let scene = occlusionScene(cols: cols, rows: rows, foreground: 60..<100)
        let hole = { (x: Int, y: Int) in (2..<5).contains(y) && (66..<70).contains(x) }
        for (sign, mirror) in [(Float(1), false), (Float(-1), true)] {
            var d = [Float](repeating: .nan, count: cols * rows), conf = [Float](repeating: 0.8, count: cols * rows)
            for y in 0..<rows { for x in 0..<cols { d[y * cols + (mirror ? cols - 1 - x : x)] = scene[y * cols + x] } }
            var error = dck_error()
            XCTAssertEqual(dck_remove_occluded_regions(&d, &conf, cols, Int32(cols), Int32(rows), sign, 2, 2, 0.5, &error),
                           Int32(DCK_OK), message(error))
            for y in 0..<rows {
                for x in 0..<cols {
                    let i = y * cols + (mirror ? cols - 1 - x : x)
                    if hole(x, y) {
                        XCTAssertTrue(d[i].isNaN, "sign \(sign): hole pixel \(x), \(y)")
                        XCTAssertEqual(conf[i], 0)
                    } else {
                        XCTAssertEqual(d[i], scene[y * cols + x], "sign \(sign): pixel \(x), \(y)")
                        XCTAssertEqual(conf[i], 0.8)
                    }
                }
            }
        }
        // The background's hidden share: 13 px per row, 5 in the hole's rows
        // (the right view sees 46..<50 through the hole), 54 of 360 = 0.15.
        var error = dck_error()
        for (share, kept) in [(0.2, true), (0.1, false)] {
            var d = scene, conf = [Float](repeating: 0.8, count: cols * rows)
            XCTAssertEqual(dck_remove_occluded_regions(&d, &conf, cols, Int32(cols), Int32(rows), 1, 2, 2, share, &error),
                           Int32(DCK_OK), message(error))
            XCTAssertEqual(d[0].isNaN, !kept, "the background at a share of \(share)")
            XCTAssertEqual(d[60], 20, "the foreground is hidden nowhere")
        }
        // A margin above the jump (16 px > 15) keeps the hole.
        var d = scene, conf = [Float](repeating: 0.8, count: cols * rows)
        XCTAssertEqual(dck_remove_occluded_regions(&d, &conf, cols, Int32(cols), Int32(rows), 1, 2, 16, 0.5, &error),
                       Int32(DCK_OK), message(error))
        XCTAssertEqual(d[2 * cols + 69], 5, "the foreground is 15 px nearer, not 16")
        for bad in [(Float(0), 2.0, 0.5), (Float(1), 0.0, 0.5), (Float(1), 2.0, 0.0), (Float(1), 2.0, 1.5)] {
            XCTAssertEqual(dck_remove_occluded_regions(&d, &conf, cols, Int32(cols), Int32(rows), bad.0, 2, bad.1, bad.2, &error),
                           Int32(DCK_ERR_ARGUMENT), "\(bad)")
            XCTAssertTrue(message(error).contains("occluded regions"), message(error))
        }
    }

    /// A foreground narrower than the jump beside the hole: right of the hole
    /// it spans 70..<74 and lands at 50..<54, so the right view sees the hole
    /// (landing at 61..64) past it. The hole stays even at a share of 0.01,
    /// while the background left of the foreground, which it hides in part
    /// (x 47..<57 land inside its 40..<54), goes at that share.
    func testWhatTheOtherViewSeesPastANarrowForegroundStays() {
        let cols = 120, rows = 6
        let scene = occlusionScene(cols: cols, rows: rows, foreground: 60..<74)
        var d = scene, conf = [Float](repeating: 0.8, count: cols * rows)
        var error = dck_error()
        XCTAssertEqual(dck_remove_occluded_regions(&d, &conf, cols, Int32(cols), Int32(rows), 1, 2, 2, 0.5, &error),
                       Int32(DCK_OK), message(error))
        XCTAssertEqual(d.filter { $0.isNaN }.count, 0, "nothing is hidden behind a region as a whole")
        d = scene
        XCTAssertEqual(dck_remove_occluded_regions(&d, &conf, cols, Int32(cols), Int32(rows), 1, 2, 2, 0.01, &error),
                       Int32(DCK_OK), message(error))
        XCTAssertEqual(d[2 * cols + 66], 5, "the hole: its landing 61 lies past the foreground's 50..<54")
        XCTAssertTrue(d[0].isNaN, "the background has hidden pixels: at a share of 0.01 it goes")
    }

    /// A measurement right of a nearer one in the right view's row still
    /// draws its own cell: the right view as the reference (x_left = x + d),
    /// x 10..<20 at 20 px, x 20 at 5, x 21 unmeasured, x 22..<25 at 3. x 20
    /// lands at 25 and x 24 at 27, where 25..29 all hold 5 (x 20's cell and
    /// the span back from it): hidden. The mirrored row with the left view
    /// as the reference marks the mirrored pixel. Rows marked in two calls
    /// equal rows marked in one.
    func testMarkingDrawsEveryMeasurementsOwnCell() {
        let cols = 50, nan = Float.nan
        var row = [Float](repeating: nan, count: cols)
        for x in 10..<20 { row[x] = 20 }
        row[20] = 5
        for x in 22..<25 { row[x] = 3 }
        let mirrored = Array(row.reversed())
        var error = dck_error()
        for (values, sign, hidden) in [(row, Float(-1), 24), (mirrored, Float(1), 25)] {
            var flags = [UInt8](repeating: 9, count: cols)
            XCTAssertEqual(dck_mark_occluded_rows(values, cols, Int32(cols), 1, sign, 2, &flags, 0, 1, &error), Int32(DCK_OK),
                           message(error))
            XCTAssertEqual(flags[hidden], 1, "sign \(sign)")
            XCTAssertEqual(flags.filter { $0 != 0 }.count, 1, "sign \(sign): only that pixel, and every flag written")
        }
        let scene = occlusionScene(cols: 120, rows: 6, foreground: 60..<100)
        var whole = [UInt8](repeating: 9, count: scene.count), parts = whole
        XCTAssertEqual(dck_mark_occluded_rows(scene, 120, 120, 6, 1, 2, &whole, 0, 6, &error), Int32(DCK_OK))
        XCTAssertEqual(dck_mark_occluded_rows(scene, 120, 120, 6, 1, 2, &parts, 0, 3, &error), Int32(DCK_OK))
        XCTAssertEqual(dck_mark_occluded_rows(scene, 120, 120, 6, 1, 2, &parts, 3, 6, &error), Int32(DCK_OK))
        XCTAssertEqual(whole, parts)
        XCTAssertEqual(dck_mark_occluded_rows(scene, 120, 120, 6, 1, 2, &parts, 4, 7, &error), Int32(DCK_ERR_ARGUMENT))
    }

    /// An unmeasured gap in the nearer surface (a uniform patch, columns
    /// 76..<90 of the foreground) still hides the hole: the gap is drawn at
    /// the smaller of its two ends' disparities, and the hole lands at 61..64,
    /// where only the gap's pixels (76..<90 land at 56..<70) would have.
    func testUnmeasuredGapsInTheNearerSurfaceStillHide() {
        let cols = 120, rows = 6
        var d = occlusionScene(cols: cols, rows: rows, foreground: 60..<100)
        for y in 0..<rows { for x in 76..<90 { d[y * cols + x] = .nan } }
        var conf = [Float](repeating: 0.8, count: cols * rows)
        var error = dck_error()
        XCTAssertEqual(dck_remove_occluded_regions(&d, &conf, cols, Int32(cols), Int32(rows), 1, 2, 2, 0.5, &error),
                       Int32(DCK_OK), message(error))
        for y in 2..<5 { for x in 66..<70 { XCTAssertTrue(d[y * cols + x].isNaN, "hole pixel \(x), \(y)") } }
        XCTAssertEqual(d[0], 5, "the background stays")
    }

    /// `testOccludedRegions...`' scene: background 5 px, `foreground` at 20 px
    /// in every row, a hole at 5 px over columns 66..<70, rows 2..<5.
    private func occlusionScene(cols: Int, rows: Int, foreground: Range<Int>) -> [Float] {
        var scene = [Float](repeating: 5, count: cols * rows)
        for y in 0..<rows { for x in foreground { scene[y * cols + x] = 20 } }
        for y in 2..<5 { for x in 66..<70 { scene[y * cols + x] = 5 } }
        return scene
    }

    func testRefinementRejectsBadJobs() {
        var error = dck_error()
        XCTAssertEqual(dck_refine_rows(nil, 0, 0, &error), Int32(DCK_ERR_ARGUMENT))
        XCTAssertTrue(message(error).contains("NULL"), message(error))
        var one: [Float] = [1]
        one.withUnsafeMutableBufferPointer { p in
            var job = dck_refine_job(base: p.baseAddress, match: p.baseAddress, base_dx: p.baseAddress,
                                     match_dx: p.baseAddress, disparity: p.baseAddress, ref: p.baseAddress,
                                     conf: p.baseAddress, mask: nil, stride: 1, cols: 1, rows: 1, sign: 1, radius: 11,
                                     texture_sigma: 2, min_zncc: 0.5, sigma: nil)
            XCTAssertEqual(dck_refine_rows(&job, 0, 1, &error), Int32(DCK_ERR_ARGUMENT))
            XCTAssertTrue(message(error).contains("radius"), message(error))
            job.radius = 2
            XCTAssertEqual(dck_refine_rows(&job, 0, 2, &error), Int32(DCK_ERR_ARGUMENT), "rows beyond the image")
        }
    }

    func testEdgeJumpsMarkAStepAndDropSmallComponents() {
        let cols = 12, rows = 12
        // A step from 10 to 20 px between columns 5 and 6, and one outlier.
        var measured = [Float](repeating: 10, count: cols * rows)
        for y in 0..<rows { for x in 6..<cols { measured[y * cols + x] = 20 } }
        measured[2 * cols + 2] = 30
        var params = dck_edge_params(jump_pixels: 0.4, jump_relative: 0.04, margin: 1, radius: 4, occlusion_side: 1,
                                     disparity_scale: 1, max_fit_rms: 0.1)
        var edge = [UInt8](repeating: 9, count: cols * rows)
        var anchor = [Int32](repeating: 0, count: cols * rows), side = [Float](repeating: 0, count: cols * rows)
        var error = dck_error()
        XCTAssertEqual(dck_edge_jumps(measured, cols, Int32(cols), Int32(rows), &params, &edge, &anchor, &side, &error),
                       Int32(DCK_OK))
        for y in 0..<rows {
            XCTAssertEqual(edge[y * cols + 5], 1, "row \(y)")
            XCTAssertEqual(edge[y * cols + 6], 1, "row \(y)")
            XCTAssertEqual(edge[y * cols + 10], 0, "row \(y)")
        }
        XCTAssertEqual(edge[2 * cols + 2], 1, "the outlier jumps too")
        XCTAssertTrue(anchor.allSatisfy { $0 == -1 }, "no holes: no anchors")
        // Labels as connected components would give: 1 = the step (24 px), 2 = the outlier (its 5 px).
        var labels = [Int32](repeating: 0, count: cols * rows)
        for i in edge.indices where edge[i] != 0 { labels[i] = (i % cols == 5 || i % cols == 6) ? 1 : 2 }
        let areas: [Int32] = [0, 24, 5]
        dck_edge_drop_small(&edge, labels, areas, 3, cols, Int32(cols), Int32(rows))
        XCTAssertEqual(edge[2 * cols + 2], 0, "an isolated outlier is no depth edge")
        XCTAssertEqual(edge[3 * cols + 5], 1)
        params.radius = 40
        XCTAssertEqual(dck_edge_jumps(measured, cols, Int32(cols), Int32(rows), &params, &edge, &anchor, &side, &error),
                       Int32(DCK_ERR_ARGUMENT))
    }

    func testWeighingAndNormalisation() {
        let values: [Float] = [1, 2, .nan, 4, 5, .infinity]
        let weights: [Float] = [0.5, 3, 1, 0, -1, 1]
        var num = [Float](repeating: 9, count: 6), den = [Float](repeating: 9, count: 6)
        dck_fill_weigh(values, nil, weights, 1, &num, &den, 6)
        XCTAssertEqual(den, [0.5, 1, 0, 0, 0, 0], "capped at 1; NaN, infinite values and weights <= 0 do not count")
        XCTAssertEqual(num, [0.5, 2, 0, 0, 0, 0])
        dck_fill_normalize(&num, den, 0.5, 6)
        XCTAssertTrue(num[0].isNaN, "at the floor: no support")
        XCTAssertEqual(num[1], 2)
        XCTAssertTrue(num[2...].allSatisfy(\.isNaN))
    }

    /// (I + lambda L) u = f has the solution u = f for a constant f.
    func testColumnSolveKeepsAConstant() {
        let rows = 9, cols = 5
        // Negative affinities to the next row; the last row has none.
        let c = (0..<(rows * cols)).map { $0 / cols < rows - 1 ? Float(-0.7) : 0 }
        var a = [Float](repeating: 3, count: rows * cols), b = [Float](repeating: 1, count: rows * cols)
        var scratch = [Float](repeating: 0, count: rows * cols)
        dck_solve_columns(c, Int32(rows), Int32(cols), 20, &a, &b, &scratch, 0, Int32(cols))
        XCTAssertEqual(a.map { abs($0 - 3) }.max()!, 0, accuracy: 1e-4)
        XCTAssertEqual(b.map { abs($0 - 1) }.max()!, 0, accuracy: 1e-4)
        // A step in f is smoothed across the rows (the solve couples them).
        var step = (0..<(rows * cols)).map { $0 / cols < rows / 2 ? Float(0) : 1 }, ones = [Float](repeating: 1, count: rows * cols)
        dck_solve_columns(c, Int32(rows), Int32(cols), 20, &step, &ones, &scratch, 0, Int32(cols))
        XCTAssertGreaterThan(step[(rows / 2 - 1) * cols], 0.2)
        XCTAssertLessThan(step[(rows / 2) * cols], 0.8)
    }
    /// A flying pixel between a near (red) and a far (blue) surface takes the
    /// surface of its colour; pixels already on their surface keep their depth.
    func testRelabelMovesAFlyingPixelToTheSurfaceOfItsColour() throws {
        let cols = 10, rows = 3, n = cols * rows
        var depth = (0..<n).map { $0 % cols < 5 ? Float(1) : Float(2) }
        depth[1 * cols + 5] = 1.4
        var rgb = [UInt8]()
        for i in 0..<n { rgb += i % cols < 5 ? [200, 0, 0] : [0, 0, 200] }
        // Window extremes of radius 1 (what the shim's erode and dilate give).
        var zmin = [Float](repeating: 0, count: n), zmax = [Float](repeating: 0, count: n)
        for y in 0..<rows {
            for x in 0..<cols {
                var lo = Float.greatestFiniteMagnitude, hi: Float = 0
                for qy in max(0, y - 1)...min(rows - 1, y + 1) {
                    for qx in max(0, x - 1)...min(cols - 1, x + 1) {
                        lo = min(lo, depth[qy * cols + qx]); hi = max(hi, depth[qy * cols + qx])
                    }
                }
                zmin[y * cols + x] = lo; zmax[y * cols + x] = hi
            }
        }
        var state: OpaquePointer?
        var error = dck_error()
        XCTAssertEqual(dck_relabel_create(rgb, 3 * cols, Int32(cols), Int32(rows), 2, 20, 1, 1.5, 0.2, &state, &error),
                       Int32(DCK_OK), message(error))
        defer { dck_relabel_free(state) }
        var region = [UInt8](repeating: 0, count: n)
        let count = dck_relabel_regions(state, depth, zmin, zmax, &region)
        XCTAssertEqual(count, Int32(2 * rows), "columns 4 and 5 see both surfaces")
        let needed = [UInt8](repeating: 255, count: n)
        dck_relabel_prepare(state, depth, zmin, zmax, needed)
        var next = depth
        XCTAssertEqual(dck_relabel_vote(state, &next, 0, count), 1)
        XCTAssertEqual(next[1 * cols + 5], 2, accuracy: 1e-5)
        var expected = depth
        expected[1 * cols + 5] = next[1 * cols + 5]
        XCTAssertEqual(next, expected, "no other pixel changes")
        var refused: OpaquePointer?
        XCTAssertEqual(dck_relabel_create(rgb, 3 * cols, Int32(cols), Int32(rows), 2, 20, 1, 1, 0.2, &refused, &error),
                       Int32(DCK_ERR_ARGUMENT), "min_ratio must be above 1")
        XCTAssertNil(refused)
    }

    /// The transpose moves every element to its mirrored place, for sizes
    /// with and without whole 8x8 blocks.
    func testTransposeMirrorsEveryElement() {
        for (rows, cols) in [(1, 1), (3, 5), (8, 8), (16, 24), (17, 9), (240, 320), (23, 41)] {
            let src = (0..<(rows * cols)).map { Float($0) * 0.5 - 7 }
            var dst = [Float](repeating: .nan, count: rows * cols)
            dck_transpose(src, Int32(rows), Int32(cols), &dst)
            for y in 0..<rows {
                for x in 0..<cols where dst[x * rows + y] != src[y * cols + x] {
                    XCTFail("\(rows)x\(cols): (\(x), \(y))")
                    return
                }
            }
        }
    }

    /// The chamfer distance matches OpenCV's distanceTransform (DIST_L2,
    /// DIST_MASK_5) as its loops compute it (ported below, with their
    /// branches): one source pixel's steps 1, 1.4 and 2.1969, and random
    /// masks from empty to dense.
    func testChamferDistanceMatchesOpenCVsPasses() {
        func reference(_ mask: [UInt8], _ cols: Int, _ rows: Int) -> [Float] {
            let axis: UInt32 = 65536, diagonal: UInt32 = 91750, knight: UInt32 = 143976, step = cols + 4
            var t = [UInt32](repeating: UInt32(Int32.max), count: step * (rows + 4))
            for y in 0..<rows {
                for x in 0..<cols {
                    let p = (y + 2) * step + x + 2
                    if mask[y * cols + x] != 0 { t[p] = 0; continue }
                    t[p] = [t[p - 2 * step - 1] + knight, t[p - 2 * step + 1] + knight, t[p - step - 2] + knight,
                            t[p - step - 1] + diagonal, t[p - step] + axis, t[p - step + 1] + diagonal,
                            t[p - step + 2] + knight, t[p - 1] + axis].min()!
                }
            }
            var out = [Float](repeating: 0, count: cols * rows)
            for y in stride(from: rows - 1, through: 0, by: -1) {
                for x in stride(from: cols - 1, through: 0, by: -1) {
                    let p = (y + 2) * step + x + 2
                    if t[p] > axis {
                        t[p] = [t[p], t[p + 2 * step + 1] + knight, t[p + 2 * step - 1] + knight, t[p + step + 2] + knight,
                                t[p + step + 1] + diagonal, t[p + step] + axis, t[p + step - 1] + diagonal,
                                t[p + step - 2] + knight, t[p + 1] + axis].min()!
                    }
                    out[y * cols + x] = Float(min(t[p], UInt32(Int32.max >> 2))) * (1 / 65536)
                }
            }
            return out
        }
        var single = [UInt8](repeating: 0, count: 9 * 7)
        single[3 * 9 + 4] = 255
        var out = [Float](repeating: .nan, count: single.count)
        var error = dck_error()
        XCTAssertEqual(dck_chamfer_distance(single, 9, 9, 7, &out, &error), Int32(DCK_OK))
        XCTAssertEqual(out[3 * 9 + 4], 0)
        XCTAssertEqual(out[3 * 9 + 5], 1)
        XCTAssertEqual(out[4 * 9 + 5], Float(91750) / 65536)
        XCTAssertEqual(out[4 * 9 + 6], Float(143976) / 65536)
        var generator = SeededGenerator(seed: 5)
        for (cols, rows, fraction) in [(1, 1, 0.0), (5, 3, 0.0), (31, 17, 0.02), (40, 33, 0.1), (64, 48, 0.5), (23, 29, 0.95)] {
            let mask = (0..<(cols * rows)).map { _ in Double.random(in: 0..<1, using: &generator) < fraction ? UInt8(255) : 0 }
            var got = [Float](repeating: .nan, count: mask.count)
            XCTAssertEqual(dck_chamfer_distance(mask, cols, Int32(cols), Int32(rows), &got, &error), Int32(DCK_OK))
            XCTAssertEqual(got, reference(mask, cols, rows), "\(cols)x\(rows), \(fraction)")
        }
    }

    /// A 3-channel guide's affinities are the same whether a pixel pair
    /// falls in a vectorized run of a wide row or in an 11-pixel row, which
    /// the scalar loop does alone.
    func testAffinitiesOfRunsMatchTheScalarLoop() throws {
        var table: OpaquePointer?
        var error = dck_error()
        XCTAssertEqual(dck_affinity_table_acquire(8, &table, &error), Int32(DCK_OK))
        defer { dck_affinity_table_release(table) }
        var generator = SeededGenerator(seed: 11)
        let cols = 45, narrow = 11
        let guide = (0..<(2 * cols * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        func affinities(_ rgb: [UInt8], _ width: Int) -> (right: [Float], below: [Float]) {
            var right = [Float](repeating: 0, count: 2 * width), below = right
            XCTAssertEqual(dck_affinity_rows(table, rgb, 3 * width, Int32(width), 2, 3, &right, &below, 0, 2, &error), Int32(DCK_OK))
            return (right, below)
        }
        let wide = affinities(guide, cols)
        for x in 0..<(cols - narrow) {
            // Pixels x..<x + narrow of both rows as a guide of their own.
            var part: [UInt8] = []
            for y in 0..<2 {
                let start = (y * cols + x) * 3
                part += guide[start..<(start + narrow * 3)]
            }
            let scalar = affinities(part, narrow)
            XCTAssertEqual(wide.right[x], scalar.right[0], "right of \(x)")
            XCTAssertEqual(wide.below[x], scalar.below[0], "below \(x)")
        }
    }
}

