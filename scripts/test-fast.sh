#!/usr/bin/env bash
# The fast test tier for everyday work: every unit test except the end-to-end
# tests (they run the built binary on rendered scenes), the opt-in integration
# tests, and the acceptance suites that render or match full-size scenes. About
# 560 tests in about 30 s of test time on 2 quiet cores (debug build). The full suite
# (the README's second command, `.ci/run`) stays the one that decides.
#   scripts/test-fast.sh [more swift test options, e.g. --filter Geometry]
# EndToEndTests.FastTierTests checks that every name below still exists.
set -euo pipefail
cd "$(dirname "$0")/.."
slow=(
    EndToEndTests SlurmIntegrationTests VividIntegrationTests   # whole commands, VMs, clusters
    DepthAcceptanceTests StereoDepthEstimatorTests              # stereo on full-size renders
    FusionAccuracyTests                                   # fusion yardsticks
    AutoDistanceTests PatternAmbiguityTests TrackingSequenceTests ConvergenceWarpTests  # convergence sweeps
    BoardSceneTests PlaneRegistrationTests SceneContentTests OpticalConditionsTests GroundTruthTests  # renders
)
args=()
for name in "${slow[@]}"; do args+=(--skip "$name"); done
exec swift test --disable-swift-testing "${args[@]}" "$@"
