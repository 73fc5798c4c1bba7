#include "app/track/params.hpp"

#include <cmath>
#include <string>

#include "app/common/check.hpp"

namespace sweepline::track {

namespace {

void positive(double v, const char* name) {
  SWL_CHECK(std::isfinite(v) && v > 0.0, std::string("TrackerParams.") + name +
                                             " must be finite and > 0, got " + std::to_string(v));
}

void non_negative(double v, const char* name) {
  SWL_CHECK(std::isfinite(v) && v >= 0.0, std::string("TrackerParams.") + name +
                                              " must be finite and >= 0, got " + std::to_string(v));
}

void int_range(int v, int lo, int hi, const char* name) {
  SWL_CHECK(v >= lo && v <= hi, std::string("TrackerParams.") + name + " must be in [" +
                                    std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
                                    std::to_string(v));
}

}  // namespace

void validate(const TrackerParams& p) {
  // Scan histories are 32-bit masks: windows fit in 31 scans.
  int_range(p.confirm_window, 1, 31, "confirm_window");
  int_range(p.confirm_hits, 1, p.confirm_window, "confirm_hits");
  int_range(p.keep_window, 1, 31, "keep_window");
  int_range(p.keep_hits, 1, p.keep_window, "keep_hits");
  int_range(p.delete_lost_scans, 0, 1000000, "delete_lost_scans");
  non_negative(p.delete_lost_s, "delete_lost_s");
  positive(p.max_speed_mps, "max_speed_mps");
  positive(p.cv_accel_psd, "cv_accel_psd");
  positive(p.ct_accel_psd, "ct_accel_psd");
  positive(p.ct_turn_psd, "ct_turn_psd");
  positive(p.cv_sojourn_s, "cv_sojourn_s");
  positive(p.ct_sojourn_s, "ct_sojourn_s");
  non_negative(p.beamwidth_deg, "beamwidth_deg");
  non_negative(p.range_resolution_m, "range_resolution_m");
  positive(p.gate_chi2, "gate_chi2");
  positive(p.max_gate_m, "max_gate_m");
  int_range(p.exact_cluster_max, 1, 200, "exact_cluster_max");
  SWL_CHECK(std::isfinite(p.association_lag_deg) && p.association_lag_deg >= 0.0 &&
                p.association_lag_deg <= 90.0,
            "TrackerParams.association_lag_deg must be in [0, 90], got " +
                std::to_string(p.association_lag_deg));
  int_range(p.capacity, 1, 10000000, "capacity");
  positive(p.acquire_radius_m, "acquire_radius_m");
  int_range(p.trail_points, 0, 4096, "trail_points");
  non_negative(p.trail_interval_s, "trail_interval_s");
  non_negative(p.cpa_limit_m, "cpa_limit_m");
  non_negative(p.tcpa_limit_s, "tcpa_limit_s");
  int_range(p.max_alarms, 1, 1000000, "max_alarms");
  positive(p.rotation_period_s, "rotation_period_s");
}

}  // namespace sweepline::track
