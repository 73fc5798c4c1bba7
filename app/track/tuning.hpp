#pragma once
// The tracker's fixed tuning constants (the operator's knobs are in TrackerParams).
namespace sweepline::track::tuning {

// Spread of the reflecting centre over a plot's extent beyond a point target's: the centre may
// lie anywhere in the excess, the standard deviation of a uniform spread is 1/sqrt(12) of it.
constexpr double kExtentSpread = 0.2887;

// A new track's turn-rate uncertainty (CT model): 3 deg/s covers the fastest ship turns.
constexpr double kInitialTurnSigmaRad = 3.0 * 3.14159265358979323846 / 180.0;

// Mode probabilities of a new track: most ships start by going straight.
constexpr double kInitialCvProb = 0.8;

// Below this turn rate the coordinated-turn equations use their straight-line limit (avoids
// dividing by a vanishing omega; the position error of the limit is below a millimetre).
constexpr double kMinTurnRateRad = 1e-6;

// A mode probability never falls below this, so that the IMM can switch back at once.
constexpr double kMinModeProb = 1e-4;

// A plot outside every gate but inside this multiple of the gate (chi-square, so twice the radius)
// of a track that got no plot starts no new track: a consistent filter still misses ~1 plot in
// 1e4 at a 99.99 % gate, and such a plot would otherwise seed a duplicate that takes the target's
// id. (Near a track that got its plot, only a split of that plot is excluded: Associator.)
constexpr double kExclusionGateFactor = 4.0;

// An acquiring track's gain from taking a plot (gate - d2, against missing) counts this much: its
// velocity is loose, so a neighbour's plot has a small d2 anywhere in its wide gate; a confirmed
// track keeps a contested plot (stress: 8 -> 7 false tracks at 0.5, 0.25 the same; the
// one-gate penalty it replaces changed nothing in the exact solver).
constexpr double kYoungGainWeight = 0.5;

// A tentative track is confirmed only while its speed is within this multiple of max_speed_mps:
// faster, its plots are two neighbours' or clutter joined (dense traffic); the margin leaves a
// real target whose first plots were noisy a few scans to settle.
constexpr double kConfirmSpeedFactor = 1.2;

// An echo within this many degrees of the start of a call of most of a rotation starts no track
// before the next call (Tracker: the bearing where such calls meet is swept twice a call).
constexpr double kEdgeSlackDeg = 5.0;

// A gap between one call's sector and the next narrower than this many beamwidths is counted as
// swept: the sectors are stabilised with the heading of their own moments, and a gyro's noise
// (0.12 deg sigma in the IMO errors) opens slivers between calls that hold a track dead on the
// bearing where calls meet; a skipped frame is wider (a frame's sector is several beamwidths).
constexpr double kSweepJoinBeams = 0.5;

// Relative speed under which CPA is the current range and TCPA 0 (no relative motion).
constexpr double kMinRelSpeedMps = 0.05;

// The sweep rate estimate follows the feed with this smoothing factor per call.
constexpr double kSweepRateSmoothing = 0.1;

// Recent unassociated plots kept for manual acquisition: one rotation's worth of sweep angle.
constexpr double kAcquirePlotMemoryDeg = 360.0;

// The scan loops prefetch the state of the track this many places ahead: enough to overlap the
// memory latency of tracks visited in bearing order (random in memory), few enough to stay in L1.
constexpr unsigned kPrefetchAhead = 8;

}  // namespace sweepline::track::tuning
