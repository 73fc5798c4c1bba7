#pragma once
// The video stage's tuning (gpu/video_math.hpp, gpu/video_control.cpp), one reason per line.
// docs/detection.md explains the stage; the scorecard (`sweepline eval`) is how a change is judged.

namespace sweepline::gpu {

// Smoothing before everything else: a 3 x 3 mean (azimuth x range). Speckle is independent from
// cell to cell while an echo spans the beamwidth (~14 rows at 4096 azimuths) and the pulse
// (~5 cells), so 9 samples cut the speckle's spread by 3 and leave echoes nearly whole.
inline constexpr int kVideoSmoothHalf = 1;

// Auto gain brings the measured noise floor to this level (8-bit), the receiver noise of the
// built-in simulator, so that its defaults are unity gain.
inline constexpr int kNoiseTarget = 12;
// The noise floor is this fraction of the way up the sorted sector/band means (the quietest
// fifth of the picture is receiver noise in any sea state the console is meant for).
inline constexpr double kNoiseQuantile = 0.2;
inline constexpr double kGainMin = 0.25, kGainMax = 4.0;  // auto gain's range (+-12 dB)

// Auto Sea takes the measured mean times this margin off the video: K-distributed sea clutter
// with a shape of 0.5-1 still exceeds twice its mean in a few percent of cells after smoothing;
// on the scorecard (harbour/open-sea, seed 7) 2.0 left 27-33 false plots a rotation at
// threshold 48, 2.5 left 8-9 and 3.0 left 0.3-6 for 94-96 % of the vessels.
inline constexpr double kSeaAutoMargin = 3.0;
// Once the clutter map has settled, auto Sea is the mean plus this many mean deviations (the
// map's, from rotation to rotation, averaged over the sector and band, censored). On the
// scorecard (seed 7, CPU, threshold 64) 4 found 83.5 % of stress's vessels, 3.5 found 85.2 %
// with at most 5 false plots a rotation in every scene, 3 found 85.9 % with 8; the console's
// threshold is 72 because at 4096^2 on the GPU 64 let 6-9 false plots through.
inline constexpr double kSeaDevMultiple = 3.5;
// Censoring: cells this many times above the mean a few hundred metres along range are targets
// and stay out of the sea statistics (in 10 dB SCR the echo is ~3x the clutter's mean; spiky sea
// after the 3 x 3 mean rarely is).
inline constexpr int kCensorMultiple = 3;
// Rotations after which a map cell's deviation counts in the statistics.
inline constexpr int kMapSettle = 4;
// Manual Sea: the curve is flat to this range, then falls as range^-kSeaFalloff.
inline constexpr double kSeaFlatM = 1200;
inline constexpr double kSeaFalloff = 1.5;

// Rain: the local mean along range over about kRainLengthM beyond a gap of kRainGuardM either
// side of the cell. The gap is the largest target's length, so a long hull does not raise its
// own estimate (rain cells are kilometres across, so the level a few hundred metres away is
// still theirs). The window's length in cells is rounded to a power of two (the mean is then a
// shift); gap plus window stay within kRainHalfMaxCells (the CUDA kernel's halo).
inline constexpr double kRainGuardM = 300;
inline constexpr double kRainLengthM = 150;
inline constexpr int kRainHalfMaxCells = 128;
inline constexpr double kRainAutoMultiple = 1.5;
inline constexpr double kRainMaxMultiple = 2.5;  // the knob at 100
// Cells enter the rain window's mean clipped to this multiple of the sector and band's clutter
// mean (or the sea level, if higher): in a dense traffic area the vessels 300-450 m along range
// otherwise raise a vessel's rain level enough to erase it.
inline constexpr double kRainClipMultiple = 3.0;

// The clutter map: a cumulative mean over the first kMapFastUpdates rotations (it is useful after
// a few), then an exponential mean with weight 1/kMapWeight per rotation.
inline constexpr int kMapFastUpdates = 8;
inline constexpr int kMapWeight = 16;
// Steady: a cell whose mean is at least kLandMinLevel above the noise floor and whose mean
// deviation is under 1/kLandSteady of its mean, after kLandMinAge rotations. Sea clutter and rain
// never hold that still; land and fixed structures do, and so does a vessel at rest.
inline constexpr int kLandMinAge = 6;
inline constexpr int kLandSteady = 8;
inline constexpr int kLandMinLevel = 48;
// Land: a steady cell in a run of steady cells along range at least this long. Shorter than
// the longest hull (a long vessel at rest, bow on, can be taken for land), long enough that
// small vessels at rest and buoys never are; on the scorecard 150 m left harbour's islands with
// 3 false plots a rotation against 5 at 200 m and 5.7 at 280 m, for the same vessels found.
inline constexpr double kLandMinRunM = 150;

}  // namespace sweepline::gpu
