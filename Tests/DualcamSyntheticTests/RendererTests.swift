import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import TestSupport
import XCTest

final class RendererTests: XCTestCase {
    func testSameSeedGivesIdenticalBytesAndNoiseDependsOnSeed() throws {
        let rig = try RenderFixtures.nominalRig(width: 128)
        let scene = RenderFixtures.room()
        let noisy = RenderOptions(noiseSigma: 2, seed: 7, jitter: true)
        let a = try Renderer.render(scene, camera: .wide, of: rig, options: noisy)
        let b = try Renderer.render(scene, camera: .wide, of: rig, options: noisy)
        XCTAssertEqual(a.image, b.image)
        XCTAssertEqual(a.depth, b.depth)
        XCTAssertEqual(a.objectIDs, b.objectIDs)
        XCTAssertEqual(a.image.channels, 3)
        XCTAssertEqual(a.image.element, .uint8)
        XCTAssertEqual(a.depth.channels, 1)
        XCTAssertEqual(a.depth.element, .float32)

        var other = noisy
        other.seed = 8
        let c = try Renderer.render(scene, camera: .wide, of: rig, options: other)
        XCTAssertNotEqual(a.image, c.image)
        XCTAssertEqual(a.depth, c.depth, "ground truth does not depend on the seed")
        let pa = try a.image.pixels(as: UInt8.self), pc = try c.image.pixels(as: UInt8.self)
        let differing = zip(pa, pc).filter { $0 != $1 }.count
        XCTAssertGreaterThan(differing, pa.count / 2)

        // Noise statistics: a flat grey plane with sigma = 4 levels.
        let flat = Scene(name: "flat", objects: [
            SceneObject(name: "wall", shape: .rectangle(center: Vector3(0, 0, 2), normal: Vector3(0, 0, 1), uAxis: Vector3(1, 0, 0),
                                                        halfWidth: .infinity, halfHeight: .infinity), appearance: .flat(.grey(0.5)))])
        let n = try Renderer.render(flat, camera: .wide, of: rig, options: RenderOptions(noiseSigma: 4, seed: 1))
        let values = try n.image.pixels(as: UInt8.self).map(Double.init)
        let mean = values.reduce(0, +) / Double(values.count)
        let sd = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
        XCTAssertClose(mean, 127.5, absolute: 0.1)
        XCTAssertClose(sd, 4, absolute: 0.15)
    }

    /// A vertical black/white edge at sensor x = 20.2 through pixel 20: 1 spp
    /// gives only black and white; 2 x 2 samples (at 19.75, 20.25) give 50 %
    /// grey in column 20; 4 x 4 samples give 75 %.
    func testSupersamplingAntiAliasesEdges() throws {
        let rig = try RenderFixtures.pinholeRig(width: 48, height: 32, f: 40, cx: 23.5)
        let edge = (20.2 - 23.5) / 40  // world x of the edge on the plane Z = 1
        let scene = Scene(name: "edge", objects: [
            SceneObject(name: "white", shape: .rectangle(center: Vector3(edge - 5, 0, 1), normal: Vector3(0, 0, -1), uAxis: Vector3(1, 0, 0),
                                                         halfWidth: 5, halfHeight: 5), appearance: .flat(.white)),
        ], background: .black)
        func column(_ n: Int) throws -> (values: Set<UInt8>, edge: Set<UInt8>) {
            let view = try Renderer.render(scene, camera: .wide, of: rig, options: RenderOptions(samplesPerAxis: n))
            let px = try view.image.pixels(as: UInt8.self)
            return (Set(px), Set((0..<32).map { px[($0 * 48 + 20) * 3] }))
        }
        XCTAssertEqual(try column(1).values, [0, 255])
        let two = try column(2)
        XCTAssertEqual(two.values, [0, 128, 255])
        XCTAssertEqual(two.edge, [128])
        XCTAssertEqual(try column(4).edge, [191])
    }

    /// A vertical edge rendered at 96x64 and area-resized to 48x32 matches
    /// the same scene rendered at 48x32 with `Intrinsics.resampled(to:)`
    /// (column means within 2 grey levels), not with `scaled(to:)`, which
    /// moves the edge by 0.25 px (about 64 grey levels in the edge column).
    func testResampledIntrinsicsMatchAnAreaResizedRender() throws {
        let big = try RenderFixtures.pinholeRig(width: 96, height: 64, f: 80, cx: 47.5)
        let k = try big.camera(.wide).model.intrinsics
        let edge = (40.3 - 47.5) / 80  // world x of the edge on Z = 1: big-image x = 40.3
        let scene = Scene(name: "edge", objects: [
            SceneObject(name: "white", shape: .rectangle(center: Vector3(edge - 5, 0, 1), normal: Vector3(0, 0, -1), uAxis: Vector3(1, 0, 0),
                                                         halfWidth: 5, halfHeight: 5), appearance: .flat(.white)),
        ], background: .black)
        let options = RenderOptions(samplesPerAxis: 8)
        let resized = try ImageOps.resize(try Renderer.render(scene, camera: .wide, of: big, options: options).image,
                                          width: 48, height: 32, interpolation: .area)
        let small = PixelSize(width: 48, height: 32)
        func rendered(_ intrinsics: Intrinsics) throws -> [UInt8] {
            var rig = big
            try rig.setCamera(RigCamera(name: .wide, model: CameraModel(intrinsics: intrinsics)))
            return try Renderer.render(scene, camera: .wide, of: rig, options: options).image.pixels(as: UInt8.self)
        }
        let reference = try resized.pixels(as: UInt8.self)
        func worstColumnDifference(_ px: [UInt8]) -> Int {
            (0..<48).map { x in abs(Int(px[(16 * 48 + x) * 3]) - Int(reference[(16 * 48 + x) * 3])) }.max()!
        }
        XCTAssertLessThanOrEqual(worstColumnDifference(try rendered(try k.resampled(to: small))), 2)
        XCTAssertGreaterThan(worstColumnDifference(try rendered(try k.scaled(to: small))), 40)
    }

    /// A small bright sphere off-axis in the distorted wide image: the
    /// intensity centroid lies within 0.1 px of CameraModel.project(centre),
    /// over a pixel away from where a distortion-free camera would put it (the
    /// nominal distortion displaces points by at most ~1.5 px at 640x480).
    func testPointFeatureLandsWhereTheDistortedModelProjectsIt() throws {
        let rig = try RenderFixtures.nominalRig(width: 640)
        let model = try rig.camera(.wide).model
        let centre = Vector3(0.9, 0.6, 2.0)
        let radius = 0.012  // about 2.6 px
        let scene = Scene(name: "dot", objects: [
            SceneObject(name: "dot", shape: .sphere(center: centre, radius: radius), appearance: .flat(.white))])
        let q = try XCTUnwrap(try model.project(centre))
        let ideal = model.intrinsics.pixel(fromNormalized: Vector2(centre.x / centre.z, centre.y / centre.z))
        XCTAssertGreaterThan((q - ideal).norm, 1.2, "the test point must sit where distortion matters")
        let region = RenderRegion(x: Int(q.x) - 12, y: Int(q.y) - 12, width: 24, height: 24)
        let view = try Renderer.render(scene, camera: .wide, of: rig, options: RenderOptions(samplesPerAxis: 8, region: region))
        let px = try view.image.pixels(as: UInt8.self)
        var sum = 0.0, sx = 0.0, sy = 0.0
        for y in region.y..<(region.y + region.height) {
            for x in region.x..<(region.x + region.width) {
                let v = Double(px[(y * view.size.width + x) * 3])
                sum += v; sx += v * Double(x); sy += v * Double(y)
            }
        }
        let centroid = Vector2(sx / sum, sy / sum)
        print("point feature: centroid \(centroid), projection \(q), error \((centroid - q).norm) px")
        XCTAssertGreaterThan(sum, 255 * 15, "the dot covers about 20 pixels")
        XCTAssertLessThan((centroid - q).norm, 0.1)
        // Outside the region nothing is rendered.
        XCTAssertTrue(view.depthValues()[0].isNaN)
        XCTAssertEqual(view.objectIDs[0], -1)
    }

    func testInvalidOptionsAndScenesAreRefused() throws {
        let rig = try RenderFixtures.pinholeRig(width: 16, height: 12, f: 10)
        let scene = RenderFixtures.room()
        XCTAssertThrowsError(try Renderer.render(scene, camera: .wide, of: rig, options: RenderOptions(samplesPerAxis: 0)))
        XCTAssertThrowsError(try Renderer.render(scene, camera: .wide, of: rig, options: RenderOptions(noiseSigma: -1)))
        XCTAssertThrowsError(try Renderer.render(scene, camera: .wide, of: rig,
                                                 options: RenderOptions(region: RenderRegion(x: 10, y: 0, width: 10, height: 4))))
        XCTAssertThrowsError(try Renderer.render(scene, camera: "lidar", of: rig))
        let bad = Scene(name: "bad", objects: [
            SceneObject(name: "flat", shape: .rectangle(center: .zero, normal: Vector3(0, 0, 1), uAxis: Vector3(0, 0, 2),
                                                        halfWidth: 1, halfHeight: 1), appearance: .flat(.white))])
        XCTAssertThrowsError(try SceneRayCaster(bad)) { error in
            XCTAssertTrue("\(error)".contains("'flat'"), "\(error)")
        }
    }

    func testRigResizing() throws {
        let rig = try RenderFixtures.nominalRig(width: 1920)
        XCTAssertEqual(try rig.camera(.wide).size, PixelSize(width: 1920, height: 1440))
        XCTAssertEqual(try rig.camera(.tele).size, PixelSize(width: 1920, height: 1440))
        XCTAssertClose(try rig.camera(.wide).model.intrinsics.fx, 3000 * 1920 / 4032, relative: 1e-12)
        let scaled = try rig.scaled(to: [.tele: PixelSize(width: 640, height: 480)])
        XCTAssertEqual(try scaled.camera(.tele).size, PixelSize(width: 640, height: 480))
        XCTAssertEqual(try scaled.camera(.wide).size, PixelSize(width: 1920, height: 1440))
        XCTAssertThrowsError(try rig.scaled(to: [.tele: PixelSize(width: 640, height: 640)]))
    }
}
