#include "app/track/tracker.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <deque>
#include <string>
#include <unordered_map>

#include "app/common/check.hpp"
#include "app/track/association.hpp"
#include "app/track/geometry.hpp"
#include "app/track/imm.hpp"
#include "app/track/tuning.hpp"

namespace sweepline::track {

namespace {

// The scan calendar: buckets of one degree of unwrapped sweep angle, reused modulo its length.
// A track is scheduled at most one rotation plus half a turn of drift ahead, well inside it.
constexpr double kBucketDeg = 1.0;
constexpr int kBuckets = 1024;

inline uint32_t low_mask(int n) {
  return n >= 32 ? 0xffffffffu : ((1u << n) - 1u);
}

struct OwnState {
  double x = 0.0, y = 0.0, vx = 0.0, vy = 0.0, heading = 0.0;
};

// A track's state. Everything up to the trail is read at each of its scans; the trail's points
// only when one is due (trail_last_s says when). Slots are read in bearing order, which is
// random in memory: docs/tracking-internals.md (Benchmark) on why its size matters.
struct Slot {
  int id = 0;       // 0: free
  int n_plots = 0;  // 1: a one-plot tentative (no filter yet)
  Track::Status status = Track::Status::Acquiring;
  bool manual = false;
  // Started automatically from a plot whose land was not known, and not yet fed a plot known to
  // be clear of land: not confirmed until it is, dropped at its first plot next to land.
  bool land_unconfirmed = false;
  bool dangerous = false;
  bool in_zone = false;
  uint32_t hist = 0;
  int scans = 0;
  int lost_scans = 0;
  int trail_head = 0;
  double lost_since_s = 0.0;
  double last_plot_s = 0.0;
  double first_t = 0.0;
  double trail_last_s = 0.0;  // time of the newest trail point (when the trail is not empty)
  Measurement first;
  Imm imm;
  std::vector<TrailPoint> trail;  // ring, oldest at trail_head once full
};

// Asks for a slot's cache lines ahead of use: the scan loops visit slots in bearing order, and
// with thousands of tracks each visit would otherwise wait for memory in turn.
inline void prefetch_slot(const Slot& s) {
  const char* b = reinterpret_cast<const char*>(&s);
  for (std::size_t o = 0; o < sizeof(Slot); o += 64) __builtin_prefetch(b + o);
}

struct PendingPlot {
  Measurement m;
  double time_s = 0.0;
  double angle = 0.0;  // unwrapped sweep angle at which it was seen
  bool gated = false;
  bool consumed = false;
  bool near_land = false;
  bool land_unknown = false;
  // Starts no track before the sweep has passed this unwrapped angle (an echo at the start of a
  // call of a whole rotation: Impl::update).
  double hold_to = -1e300;
};

// A scheduled scan. It carries the track's estimate as scheduled (position and velocity at time
// t; an estimate changes only at its track's scans), so that walking the calendar reads no
// track state; the id tells a cancelled or deleted track (slot_ids).
struct CalendarEntry {
  double angle;
  int slot;
  int id;
  double x, y, vx, vy, t;
};

struct Gap {
  double from, to;  // unwrapped sweep angles not observed
};

}  // namespace

struct Tracker::Impl {
  TrackerParams p;
  ImmNoise noise;
  TrackerStats stats;
  std::vector<Slot> slots;
  std::vector<int> slot_ids;  // per slot: its track's id, 0 when free (compact, for the calendar)
  std::vector<int> free_slots;
  std::unordered_map<int, int> slot_of_id;
  int next_id = 1;
  int next_alarm_id = 1;
  int next_zone_id = 1;
  std::vector<std::pair<int, AcquisitionZone>> zones;
  std::vector<Alarm> alarms;

  // Sweep bookkeeping.
  bool started = false;
  double sweep_pos_deg = 0.0;  // bearing of the sweep after the latest call
  double angle = 0.0;          // unwrapped sweep angle after the latest call
  double processed = 0.0;      // tracks up to this unwrapped angle have been associated
  double now_s = 0.0;
  double rate_dps = 0.0;                          // measured sweep rate
  std::deque<std::pair<double, double>> history;  // (unwrapped angle, time) per call
  std::deque<Gap> gaps;
  OwnState own;
  bool relative = true;

  std::vector<std::vector<CalendarEntry>> calendar =
      std::vector<std::vector<CalendarEntry>>(kBuckets);
  std::vector<PendingPlot> pending;
  std::deque<PendingPlot> recent;  // unassociated plots kept for manual acquisition

  // Per-call scratch.
  Associator associator;
  AssociationResult assoc;
  std::vector<GateTrack> gate_tracks;
  std::vector<GatePlot> gate_plots;
  std::vector<int> gate_plot_index;
  std::vector<int> due;
  std::vector<double> due_time;
  std::vector<CalendarEntry> deferred;

  explicit Impl(const TrackerParams& params) { set_params(params); }

  void set_params(const TrackerParams& params) {
    validate(params);
    p = params;
    noise = {p.cv_accel_psd, p.ct_accel_psd, p.ct_turn_psd, p.cv_sojourn_s, p.ct_sojourn_s};
  }

  double rotation_period() const { return rate_dps > 0.0 ? 360.0 / rate_dps : p.rotation_period_s; }

  // Time at which the sweep passed an unwrapped angle, interpolated over the calls seen.
  double time_at(double a) const {
    if (history.empty()) return now_s;
    if (a >= history.back().first) return history.back().second;
    for (std::size_t i = history.size() - 1; i > 0; --i) {
      const auto& [a1, t1] = history[i];
      const auto& [a0, t0] = history[i - 1];
      if (a >= a0) return a1 > a0 ? t0 + (t1 - t0) * (a - a0) / (a1 - a0) : t1;
    }
    const double r = rate_dps > 0.0 ? rate_dps : 360.0 / p.rotation_period_s;
    return history.front().second - (history.front().first - a) / r;
  }

  // Bearing of the sweep when it was at unwrapped angle a.
  double bearing_at(double a) const { return wrap360(sweep_pos_deg - (angle - a)); }

  bool in_gap(double a) const {
    for (const Gap& g : gaps)
      if (a >= g.from && a < g.to) return true;
    return false;
  }

  OwnState own_at(const OwnShip& o, double t) const {
    OwnState s;
    if (!o.valid) return s;
    const double v = o.speed_mps;
    s.vx = v * std::sin(o.course_deg * kDeg);
    s.vy = v * std::cos(o.course_deg * kDeg);
    s.x = o.x_m + s.vx * (t - o.time_s);
    s.y = o.y_m + s.vy * (t - o.time_s);
    s.heading = o.heading_deg;
    return s;
  }

  void position_at(const Slot& s, double t, double& x, double& y) const {
    if (s.n_plots < 2) {
      x = s.first.z[0];
      y = s.first.z[1];
      return;
    }
    const double dt = t - s.imm.time_s;
    x = s.imm.xc[0] + s.imm.xc[2] * dt;
    y = s.imm.xc[1] + s.imm.xc[3] * dt;
  }

  bool in_any_zone(double x, double y) const {
    const ZoneOrigin o{own.x, own.y, own.heading};
    for (const auto& [id, z] : zones)
      if (zone_contains(z, o, x, y)) return true;
    return false;
  }

  void schedule(int slot, double a) {
    const Slot& s = slots[std::size_t(slot)];
    CalendarEntry e{a, slot, s.id, s.first.z[0], s.first.z[1], 0.0, 0.0, 0.0};
    if (s.n_plots >= 2) {
      e.x = s.imm.xc[0];
      e.y = s.imm.xc[1];
      e.vx = s.imm.xc[2];
      e.vy = s.imm.xc[3];
      e.t = s.imm.time_s;
    }
    reschedule(e);
  }

  // e.angle: where the sweep will pass the track.
  void reschedule(CalendarEntry e) {
    e.angle = std::max(e.angle, processed + 1e-9);
    const int b = int(int64_t(std::floor(e.angle / kBucketDeg)) % kBuckets + kBuckets) % kBuckets;
    calendar[std::size_t(b)].push_back(e);
  }

  void raise(Alarm::Kind kind, int track_id) {
    Alarm a;
    a.id = next_alarm_id++;
    a.kind = kind;
    a.track_id = track_id;
    a.time_s = now_s;
    alarms.push_back(a);
    while (int(alarms.size()) > p.max_alarms) {
      auto it =
          std::find_if(alarms.begin(), alarms.end(), [](const Alarm& x) { return x.acknowledged; });
      alarms.erase(it != alarms.end() ? it : alarms.begin());
    }
  }

  int live() const { return int(slot_of_id.size()); }

  // A new one-plot tentative track; -1 when capacity is reached.
  int start_track(const PendingPlot& pl, bool manual) {
    if (live() >= p.capacity) {
      ++stats.refused_capacity;
      return -1;
    }
    int slot;
    if (!free_slots.empty()) {
      slot = free_slots.back();
      free_slots.pop_back();
    } else {
      slot = int(slots.size());
      slots.emplace_back();
    }
    Slot& s = slots[slot];
    std::vector<TrailPoint> trail = std::move(s.trail);  // keeps a freed slot's allocation
    trail.clear();
    s = Slot{};
    s.trail = std::move(trail);
    if (p.trail_points > 0) s.trail.reserve(std::size_t(p.trail_points));  // one allocation
    s.id = next_id++;
    if (slot_ids.size() < slots.size()) slot_ids.resize(slots.size(), 0);
    slot_ids[std::size_t(slot)] = s.id;
    s.manual = manual;
    s.land_unconfirmed = !manual && pl.land_unknown;
    s.n_plots = 1;
    s.first = pl.m;
    s.first_t = pl.time_s;
    s.last_plot_s = pl.time_s;
    s.hist = 1;
    s.scans = 1;
    s.in_zone = in_any_zone(pl.m.z[0], pl.m.z[1]);
    push_trail(s, pl.time_s, pl.m.z[0], pl.m.z[1]);
    slot_of_id[s.id] = slot;
    ++stats.tracks_started;
    schedule(slot, pl.angle + 360.0);
    return slot;
  }

  void erase(int slot) {
    Slot& s = slots[slot];
    slot_of_id.erase(s.id);
    s.id = 0;
    slot_ids[std::size_t(slot)] = 0;
    s.trail.clear();
    free_slots.push_back(slot);
  }

  void push_trail(Slot& s, double t, double x, double y) {
    if (p.trail_points <= 0) return;
    if (!s.trail.empty() && t - s.trail_last_s < p.trail_interval_s) return;
    s.trail_last_s = t;
    const std::size_t cap = std::size_t(p.trail_points);
    if (s.trail.size() > cap) {  // trail_points was lowered: keep the newest
      std::vector<TrailPoint> ordered = ordered_trail(s);
      s.trail.assign(ordered.end() - std::ptrdiff_t(cap), ordered.end());
      s.trail_head = 0;
    }
    if (s.trail.size() < cap) {
      s.trail.push_back({t, x, y});
    } else {
      s.trail[std::size_t(s.trail_head)] = {t, x, y};
      s.trail_head = int((std::size_t(s.trail_head) + 1) % cap);
    }
  }

  std::vector<TrailPoint> ordered_trail(const Slot& s) const {
    std::vector<TrailPoint> out;
    out.reserve(s.trail.size());
    for (std::size_t i = 0; i < s.trail.size(); ++i)
      out.push_back(s.trail[(std::size_t(s.trail_head) + i) % s.trail.size()]);
    return out;
  }

  void evaluate_danger(Slot& s) {
    bool d = false;
    if (s.status == Track::Status::Tracked && s.n_plots >= 2) {
      double x, y;
      position_at(s, now_s, x, y);
      const Cpa c = compute_cpa(own.x, own.y, own.vx, own.vy, x, y, s.imm.xc[2], s.imm.xc[3],
                                tuning::kMinRelSpeedMps);
      d = c.tcpa_s >= 0.0 && c.tcpa_s <= p.tcpa_limit_s && c.cpa_m <= p.cpa_limit_m;
    }
    if (d && !s.dangerous) raise(Alarm::Kind::Cpa, s.id);
    s.dangerous = d;
  }

  // Life rules after a scan; returns false when the track was deleted.
  bool apply_life(int slot) {
    Slot& s = slots[slot];
    if (s.status == Track::Status::Acquiring) {
      const int w = std::min(s.scans, p.confirm_window);
      const int hits = std::popcount(s.hist & low_mask(w));
      // Not before land is known where it started (its echoes may be a coast's).
      // Not while its speed is beyond any ship's: plots of two neighbours, or clutter, joined.
      const double v2 =
          s.n_plots >= 2 ? s.imm.xc[2] * s.imm.xc[2] + s.imm.xc[3] * s.imm.xc[3] : 0.0;
      const double vmax = tuning::kConfirmSpeedFactor * p.max_speed_mps;
      if (hits >= p.confirm_hits && s.n_plots >= 2 && !s.land_unconfirmed && v2 <= vmax * vmax) {
        s.status = Track::Status::Tracked;
        ++stats.tracks_confirmed;
        if (s.in_zone && !s.manual) raise(Alarm::Kind::NewTargetInZone, s.id);
      } else if (w - hits > p.confirm_window - p.confirm_hits) {
        ++stats.tracks_deleted;
        erase(slot);
        return false;
      }
      return true;
    }
    const int w = std::min(s.scans, p.keep_window);
    const int misses = w - std::popcount(s.hist & low_mask(w));
    const bool keep = misses <= p.keep_window - p.keep_hits;
    if (s.status == Track::Status::Tracked) {
      if (keep) return true;
      s.status = Track::Status::Lost;
      s.lost_scans = 0;
      s.lost_since_s = now_s;
      s.dangerous = false;
      ++stats.tracks_lost;
      raise(Alarm::Kind::LostTarget, s.id);
    } else if (keep) {
      s.status = Track::Status::Tracked;  // seen again often enough: same id
      return true;
    } else {
      ++s.lost_scans;
    }
    if (s.lost_scans >= p.delete_lost_scans || now_s - s.lost_since_s >= p.delete_lost_s) {
      ++stats.tracks_deleted;
      erase(slot);
      return false;
    }
    return true;
  }

  void collect_due(double upto) {
    due.clear();
    due_time.clear();
    const int64_t b0 = int64_t(std::floor(processed / kBucketDeg));
    const int64_t b1 = int64_t(std::floor(upto / kBucketDeg));
    const int64_t nb = std::min<int64_t>(b1 - b0 + 1, kBuckets);
    deferred.clear();
    for (int64_t k = 0; k < nb; ++k) {
      auto& bucket = calendar[std::size_t(((b0 + k) % kBuckets + kBuckets) % kBuckets)];
      for (std::size_t i = 0; i < bucket.size();) {
        CalendarEntry e = bucket[i];
        if (e.angle > upto) {
          ++i;
          continue;
        }
        bucket[i] = bucket.back();
        bucket.pop_back();
        if (slot_ids[std::size_t(e.slot)] != e.id) continue;  // cancelled or deleted
        // Where the track is now: its scan is where the sweep passes its current bearing.
        const double x = e.x + e.vx * (now_s - e.t), y = e.y + e.vy * (now_s - e.t);
        const double b = bearing_deg(x - own.x, y - own.y);
        const double a = e.angle + wrap180(b - bearing_at(e.angle));
        if (a > upto) {
          e.angle = a;
          deferred.push_back(e);
        } else if (in_gap(a) || a <= processed - 180.0) {
          // Not observed (a sector the caller skipped), or moved back past a sector already
          // associated: no scan this rotation.
          e.angle = a + 360.0;
          deferred.push_back(e);
        } else {
          due.push_back(e.slot);
          due_time.push_back(time_at(a));
        }
      }
    }
    for (const CalendarEntry& e : deferred) reschedule(e);
  }

  void associate_due() {
    gate_tracks.resize(due.size());
    for (std::size_t i = 0; i < due.size(); ++i) {
      if (i + tuning::kPrefetchAhead < due.size())
        prefetch_slot(slots[std::size_t(due[i + tuning::kPrefetchAhead])]);
      const Slot& s = slots[std::size_t(due[i])];
      GateTrack& g = gate_tracks[i];
      g = GateTrack{};
      g.max_radius_m = p.max_gate_m;
      g.young = s.status == Track::Status::Acquiring;
      if (s.n_plots < 2) {
        const double dt = std::max(due_time[i] - s.first_t, 0.0);
        const double r0 = std::max(s.first.r[0], s.first.r[2]);
        g.pos[0] = s.first.z[0];
        g.pos[1] = s.first.z[1];
        g.circle_radius_m =
            std::min(p.max_speed_mps * dt + std::sqrt(p.gate_chi2 * 2.0 * r0), p.max_gate_m);
      } else {
        imm_predict_position(s.imm, due_time[i], noise, g.pos, g.cov);
      }
    }
    gate_plots.clear();
    gate_plot_index.clear();
    for (std::size_t k = 0; k < pending.size(); ++k) {
      if (pending[k].consumed) continue;
      GatePlot gp;
      gp.z[0] = pending[k].m.z[0];
      gp.z[1] = pending[k].m.z[1];
      std::copy(pending[k].m.r, pending[k].m.r + 3, gp.r);
      gate_plots.push_back(gp);
      gate_plot_index.push_back(int(k));
    }
    associator.run(gate_tracks, gate_plots, p.gate_chi2, p.gate_chi2 * tuning::kExclusionGateFactor,
                   p.exact_cluster_max, assoc, own.x, own.y, tuning::kYoungGainWeight);
    stats.greedy_clusters += uint64_t(assoc.greedy_clusters);
    for (std::size_t j = 0; j < gate_plots.size(); ++j)
      if (assoc.plot_excluded[j]) pending[std::size_t(gate_plot_index[j])].gated = true;

    for (std::size_t i = 0; i < due.size(); ++i) {
      if (i + tuning::kPrefetchAhead < due.size())
        prefetch_slot(slots[std::size_t(due[i + tuning::kPrefetchAhead])]);
      const int slot = due[i];
      Slot& s = slots[std::size_t(slot)];
      const int j = assoc.track_plot[i];
      s.hist <<= 1;
      ++s.scans;
      if (j >= 0) {
        PendingPlot& pl = pending[std::size_t(gate_plot_index[std::size_t(j)])];
        pl.consumed = true;
        ++stats.plots_associated;
        if (s.n_plots == 1)
          imm_init(s.imm, s.first, s.first_t, pl.m, pl.time_s);
        else
          imm_update(s.imm, pl.time_s, pl.m, noise);
        if (s.land_unconfirmed && !s.manual && pl.near_land && !pl.land_unknown) {
          // Acquired before the clutter map knew land, and land it is: a coast's or an
          // island's echo, which automatic acquisition leaves alone.
          ++stats.land_tracks_dropped;
          ++stats.tracks_deleted;
          erase(slot);
          continue;
        }
        if (!pl.near_land && !pl.land_unknown) s.land_unconfirmed = false;
        ++s.n_plots;
        s.hist |= 1u;
        s.last_plot_s = pl.time_s;
        push_trail(s, pl.time_s, s.imm.xc[0], s.imm.xc[1]);
      }
      double x, y;
      position_at(s, now_s, x, y);
      s.in_zone = in_any_zone(x, y);
      if (!apply_life(slot)) continue;
      evaluate_danger(s);
      // Next scan: one rotation later, where the track will be by then.
      const double period = rotation_period();
      double xn, yn;
      position_at(s, now_s + period, xn, yn);
      const double dx = x - own.x, dy = y - own.y;
      const double dxn = xn - (own.x + own.vx * period), dyn = yn - (own.y + own.vy * period);
      const double b_now = bearing_deg(dx, dy);
      // The bearing's change over the rotation: the clockwise angle from (dx, dy) to (dxn, dyn).
      const double turn = std::atan2(dy * dxn - dx * dyn, dx * dxn + dy * dyn) / kDeg;
      const double a_now = angle - cw_deg(b_now, sweep_pos_deg);
      schedule(slot, a_now + 360.0 + turn);
    }
  }

  void release_plots(double upto) {
    std::size_t w = 0;
    for (std::size_t k = 0; k < pending.size(); ++k) {
      PendingPlot& pl = pending[k];
      if (pl.consumed) continue;
      if (pl.angle > upto || angle <= pl.hold_to) {
        pending[w++] = pl;
        continue;
      }
      if (pl.gated) continue;  // near a track: a split or a competitor, not a new target
      if (pl.near_land) ++stats.near_land_plots;
      const bool allowed =
          !pl.near_land && (p.auto_acquire_everywhere || in_any_zone(pl.m.z[0], pl.m.z[1]));
      if (allowed)
        start_track(pl, false);
      else
        recent.push_back(pl);
    }
    pending.resize(w);
    while (!recent.empty() && recent.front().angle < angle - tuning::kAcquirePlotMemoryDeg)
      recent.pop_front();
  }

  void update(std::span<const TrackPlot> plots, double from, double to, double now,
              const OwnShip& o) {
    SWL_CHECK(std::isfinite(now) && std::isfinite(from) && std::isfinite(to),
              "tracker update: non-finite time or sweep sector");
    SWL_CHECK(!started || now >= now_s, "tracker update: time went backwards (" +
                                            std::to_string(now) + " < " + std::to_string(now_s) +
                                            ")");
    from = wrap360(from);
    to = wrap360(to);
    double width = from == to ? 360.0 : cw_deg(from, to);
    if (!started) {
      started = true;
      sweep_pos_deg = from;
      angle = 0.0;
      processed = -p.association_lag_deg;
    } else {
      double gap = cw_deg(sweep_pos_deg, from);
      if (gap > 180.0) {  // overlaps the previous sector: count the overlap once
        width = std::max(0.0, width - (360.0 - gap));
        gap = 0.0;
      }
      // A sliver between calls is the heading's jitter moving the sector's true bearings (a
      // gyro's noise from one call to the next), not a sector the caller skipped: it was swept.
      if (gap > tuning::kSweepJoinBeams * p.beamwidth_deg) gaps.push_back({angle, angle + gap});
      angle += gap;
      const double dt = now - now_s;
      if (dt > 0.0 && width > 0.0) {
        const double r = (gap + width) / dt;
        rate_dps = rate_dps > 0.0 ? rate_dps + tuning::kSweepRateSmoothing * (r - rate_dps) : r;
      }
    }
    angle += width;
    sweep_pos_deg = to;
    now_s = now;
    own = own_at(o, now);
    relative = !o.valid;
    history.push_back({angle, now});
    while (history.size() > 2 && history[1].first < angle - 720.0) history.pop_front();

    // Plots in, with the sweep angle at which they were seen.
    for (const TrackPlot& tp : plots) {
      ++stats.plots;
      if (!std::isfinite(tp.time_s) || !std::isfinite(tp.x_m) || !std::isfinite(tp.y_m) ||
          !std::isfinite(tp.range_m) || !std::isfinite(tp.bearing_deg) ||
          !(tp.range_sigma_m > 0.0) || !(tp.bearing_sigma_deg > 0.0) || tp.range_m < 0.0 ||
          !std::isfinite(tp.range_extent_m) || !std::isfinite(tp.azimuth_extent_deg)) {
        ++stats.bad_plots;
        continue;
      }
      PendingPlot pl;
      pl.m = polar_measurement(tp.x_m, tp.y_m, tp.range_m, tp.bearing_deg, tp.range_sigma_m,
                               tp.bearing_sigma_deg, tp.range_extent_m, tp.azimuth_extent_deg,
                               p.beamwidth_deg, p.range_resolution_m);
      pl.time_s = tp.time_s;
      pl.near_land = tp.near_land;
      pl.land_unknown = tp.land_unknown;
      double behind = cw_deg(wrap360(tp.bearing_deg), to);
      if (behind > std::max(width, 180.0)) behind = 0.0;  // just ahead of the sweep
      pl.angle = angle - behind;
      // In a call of a whole rotation the bearing where the calls meet is swept at its start and
      // again at its end: an echo there (a target dead ahead, its measured bearing jittering
      // across the edge) is placed at the start one call and at the end the next, while its
      // track is due once a rotation. Such an echo waits for the next call before it may start
      // a track, so that the track due at the edge meets it.
      if (width > 180.0 && behind > width - tuning::kEdgeSlackDeg) pl.hold_to = angle;
      pending.push_back(pl);
    }

    const double upto = angle - p.association_lag_deg;
    if (upto > processed) {
      collect_due(upto);
      associate_due();
      processed = upto;
    }
    release_plots(angle - 2.0 * p.association_lag_deg);
    while (!gaps.empty() && gaps.front().to < processed - 360.0) gaps.pop_front();
  }

  Track snapshot(const Slot& s) const {
    Track t;
    t.id = s.id;
    t.status = s.status;
    t.time_s = now_s;
    t.last_plot_s = s.last_plot_s;
    t.manual = s.manual;
    t.scans_seen = s.hist;
    t.scans = s.scans;
    t.dangerous = s.dangerous;
    t.in_zone = s.in_zone;
    position_at(s, now_s, t.x_m, t.y_m);
    if (s.n_plots >= 2) {
      t.vx_mps = s.imm.xc[2];
      t.vy_mps = s.imm.xc[3];
      double pos[2], cov[3];
      imm_predict_position(s.imm, now_s, noise, pos, cov);
      std::copy(cov, cov + 3, t.pos_cov);
      ImmCov pc;
      imm_combined_cov(s.imm, pc);
      t.vel_cov[0] = pc[cov_index(2, 2)];
      t.vel_cov[1] = pc[cov_index(2, 3)];
      t.vel_cov[2] = pc[cov_index(3, 3)];
      t.turn_prob = s.imm.mu[1];
    } else {
      std::copy(s.first.r, s.first.r + 3, t.pos_cov);
      const double v = p.max_speed_mps * p.max_speed_mps;
      t.vel_cov[0] = t.vel_cov[2] = v;
    }
    const double dx = t.x_m - own.x, dy = t.y_m - own.y;
    t.range_m = std::hypot(dx, dy);
    t.bearing_deg = bearing_deg(dx, dy);
    t.speed_mps = std::hypot(t.vx_mps, t.vy_mps);
    t.course_deg = bearing_deg(t.vx_mps, t.vy_mps);
    const double rvx = t.vx_mps - own.vx, rvy = t.vy_mps - own.vy;
    t.rel_speed_mps = std::hypot(rvx, rvy);
    t.rel_course_deg = bearing_deg(rvx, rvy);
    const Cpa c = compute_cpa(own.x, own.y, own.vx, own.vy, t.x_m, t.y_m, t.vx_mps, t.vy_mps,
                              tuning::kMinRelSpeedMps);
    t.cpa_m = c.cpa_m;
    t.tcpa_s = c.tcpa_s;
    t.cpa_moving = c.moving;
    t.trail = ordered_trail(s);
    return t;
  }
};

Tracker::Tracker(const TrackerParams& params) : impl_(std::make_unique<Impl>(params)) {}
Tracker::~Tracker() = default;
Tracker::Tracker(Tracker&&) noexcept = default;
Tracker& Tracker::operator=(Tracker&&) noexcept = default;

void Tracker::update(std::span<const TrackPlot> plots, double sweep_from_deg, double sweep_to_deg,
                     double now_s, const OwnShip& own) {
  impl_->update(plots, sweep_from_deg, sweep_to_deg, now_s, own);
}

std::optional<int> Tracker::acquire(double x_m, double y_m) {
  Impl& m = *impl_;
  const double r2max = m.p.acquire_radius_m * m.p.acquire_radius_m;
  int best = -1;
  double best_d2 = r2max;
  for (const auto& [id, slot] : m.slot_of_id) {
    double x, y;
    m.position_at(m.slots[std::size_t(slot)], m.now_s, x, y);
    const double d2 = (x - x_m) * (x - x_m) + (y - y_m) * (y - y_m);
    if (d2 <= best_d2) {
      best_d2 = d2;
      best = slot;
    }
  }
  if (best >= 0) {
    m.slots[std::size_t(best)].manual = true;
    return m.slots[std::size_t(best)].id;
  }
  // The nearest recent plot nobody took (held back, or seen where acquisition is off).
  const PendingPlot* plot = nullptr;
  best_d2 = r2max;
  auto consider = [&](const PendingPlot& pl) {
    if (pl.consumed || pl.gated) return;
    const double d2 = (pl.m.z[0] - x_m) * (pl.m.z[0] - x_m) + (pl.m.z[1] - y_m) * (pl.m.z[1] - y_m);
    if (d2 <= best_d2) {
      best_d2 = d2;
      plot = &pl;
    }
  };
  for (const PendingPlot& pl : m.recent) consider(pl);
  for (const PendingPlot& pl : m.pending) consider(pl);
  if (!plot) return std::nullopt;
  PendingPlot copy = *plot;
  const bool from_pending = plot >= m.pending.data() && plot < m.pending.data() + m.pending.size();
  if (from_pending) const_cast<PendingPlot*>(plot)->consumed = true;
  const int slot = m.start_track(copy, true);
  if (slot < 0) return std::nullopt;
  if (!from_pending)
    m.recent.erase(std::find_if(m.recent.begin(), m.recent.end(),
                                [&](const PendingPlot& pl) { return &pl == plot; }));
  return m.slots[std::size_t(slot)].id;
}

bool Tracker::cancel(int track_id) {
  auto it = impl_->slot_of_id.find(track_id);
  if (it == impl_->slot_of_id.end()) return false;
  impl_->erase(it->second);
  return true;
}

void Tracker::cancel_all() {
  std::vector<int> slots;
  for (const auto& [id, slot] : impl_->slot_of_id) slots.push_back(slot);
  for (int s : slots) impl_->erase(s);
}

int Tracker::add_zone(const AcquisitionZone& zone) {
  validate(zone);
  const int id = impl_->next_zone_id++;
  impl_->zones.emplace_back(id, zone);
  return id;
}

bool Tracker::remove_zone(int zone_id) {
  auto& z = impl_->zones;
  auto it = std::find_if(z.begin(), z.end(), [&](const auto& e) { return e.first == zone_id; });
  if (it == z.end()) return false;
  z.erase(it);
  return true;
}

bool Tracker::replace_zone(int zone_id, const AcquisitionZone& zone) {
  validate(zone);
  for (auto& [id, z] : impl_->zones)
    if (id == zone_id) {
      z = zone;
      return true;
    }
  return false;
}

std::vector<std::pair<int, AcquisitionZone>> Tracker::zones() const {
  return impl_->zones;
}

void Tracker::set_params(const TrackerParams& params) {
  impl_->set_params(params);
}
const TrackerParams& Tracker::params() const {
  return impl_->p;
}

void Tracker::tracks(std::vector<Track>& out) const {
  std::vector<std::pair<int, int>> order(impl_->slot_of_id.begin(), impl_->slot_of_id.end());
  std::sort(order.begin(), order.end());
  out.resize(order.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    out[i] = impl_->snapshot(impl_->slots[std::size_t(order[i].second)]);
}

std::optional<Track> Tracker::find(int track_id) const {
  auto it = impl_->slot_of_id.find(track_id);
  if (it == impl_->slot_of_id.end()) return std::nullopt;
  return impl_->snapshot(impl_->slots[std::size_t(it->second)]);
}

std::size_t Tracker::size() const {
  return impl_->slot_of_id.size();
}

const std::vector<Alarm>& Tracker::alarms() const {
  return impl_->alarms;
}

bool Tracker::acknowledge(int alarm_id) {
  for (Alarm& a : impl_->alarms)
    if (a.id == alarm_id) {
      a.acknowledged = true;
      return true;
    }
  return false;
}

void Tracker::acknowledge_all() {
  for (Alarm& a : impl_->alarms) a.acknowledged = true;
}

bool Tracker::relative_only() const {
  return impl_->relative;
}
const TrackerStats& Tracker::stats() const {
  return impl_->stats;
}

}  // namespace sweepline::track
