// ARPA tracker: the cost of one scan (one antenna rotation, fed as 8 sectors) with 1,000 /
// 10,000 / 100,000 targets, each giving one plot per scan, plus 2 % clutter plots, on one
// thread. Targets keep a constant density (one per km^2), so the disc grows with the count
// (18 km radius at 1,000, 178 km at 100,000) and, as bearing noise grows with range, so do the
// far targets' gates and their overlap. Plots are generated before timing; only
// Tracker::update is timed, after warm-up rotations have confirmed the tracks. Prints a table
// (CPU time per scan: median and minimum over the timed scans); --targets N runs one count (for
// profiling); --json FILE writes the figures (`sweepline bench` runs it as bench_track).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "app/track/tracker.hpp"
#include "tests/app/track/track_sim.hpp"

namespace {

using namespace sweepline;
using tracktest::kDeg;
using tracktest::kKnot;

struct Call {
  std::vector<track::TrackPlot> plots;
  double from, to, now;
  track::OwnShip own;
};

// This thread's CPU time: on a shared machine it leaves out the time other processes held the
// core (docs/decisions/0038-cpu-figures-by-cpu-time.md); wall time is printed beside it.
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

struct Result {
  int targets;
  double cpu_ms_median, cpu_ms_min, ms_per_scan_median, ms_per_scan_min, us_per_target;
  std::size_t tracks, tracked;
};

Result run(int n, int warmup, int timed) {
  tracktest::SimRadar radar;
  radar.clutter_fraction = 0.02;
  radar.own_speed_mps = 10 * kKnot;
  const double radius = std::sqrt(double(n) / std::numbers::pi) * 1000.0;  // 1 per km^2
  radar.clutter_range_m = radius;
  std::mt19937_64 rng{static_cast<uint64_t>(n)};
  std::uniform_real_distribution<double> u(0.0, 1.0);
  radar.targets.resize(std::size_t(n));
  for (auto& s : radar.targets) {
    const double r = 500.0 + (radius - 500.0) * std::sqrt(u(rng)), b = 360 * u(rng);
    const double c = 360 * u(rng), sp = 25 * kKnot * u(rng);
    s.x = r * std::sin(b * kDeg);
    s.y = r * std::cos(b * kDeg);
    s.vx = sp * std::sin(c * kDeg);
    s.vy = sp * std::cos(c * kDeg);
  }
  track::TrackerParams p;
  p.capacity = 4 * n;
  track::Tracker tr(p);
  radar.rotate(tr, warmup);
  std::vector<Call> calls;
  for (int i = 0; i < timed * radar.calls_per_rotation; ++i) {
    Call c;
    radar.next_sector(c.from, c.to, c.now);
    c.plots = radar.plots;
    c.own = radar.own_at(c.now);
    calls.push_back(std::move(c));
  }
  std::vector<double> scan_ms, cpu_ms;
  for (int r = 0; r < timed; ++r) {
    const double c0 = thread_cpu_ms();
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < radar.calls_per_rotation; ++k) {
      const Call& c = calls[std::size_t(r * radar.calls_per_rotation + k)];
      tr.update(c.plots, c.from, c.to, c.now, c.own);
    }
    const auto t1 = std::chrono::steady_clock::now();
    scan_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    cpu_ms.push_back(thread_cpu_ms() - c0);
  }
  std::vector<track::Track> tracks;
  tr.tracks(tracks);
  Result res;
  res.targets = n;
  std::sort(scan_ms.begin(), scan_ms.end());
  res.ms_per_scan_median = scan_ms[scan_ms.size() / 2];
  res.ms_per_scan_min = scan_ms.front();
  std::sort(cpu_ms.begin(), cpu_ms.end());
  res.cpu_ms_median = cpu_ms[cpu_ms.size() / 2];
  res.cpu_ms_min = cpu_ms.front();
  res.us_per_target = res.cpu_ms_median * 1000.0 / n;
  res.tracks = tracks.size();
  res.tracked = std::size_t(std::count_if(tracks.begin(), tracks.end(), [](const auto& t) {
    return t.status == track::Track::Status::Tracked;
  }));
  return res;
}

}  // namespace

int main(int argc, char** argv) {
  std::string json;
  int timed = 7;
  std::vector<int> counts = {1000, 10000, 100000};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
      json = argv[++i];
    else if (!std::strcmp(argv[i], "--scans") && i + 1 < argc)
      timed = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--targets") && i + 1 < argc)  // one count (profiling)
      counts = {std::max(1, std::atoi(argv[++i]))};
    else {
      std::fprintf(stderr, "usage: bench_track [--scans N] [--targets N] [--json FILE]\n");
      return 2;
    }
  }
  std::printf(
      "ARPA tracker, one scan = 8 update() calls, 1 plot per target + 2 %% clutter, 1 thread\n");
  std::printf("%10s %13s %13s %14s %14s %14s %10s %10s\n", "targets", "CPU ms/scan", "CPU ms (min)",
              "wall ms (med)", "wall ms (min)", "CPU us/target", "tracks", "tracked");
  std::vector<Result> results;
  for (int n : counts) {
    const Result r = run(n, 6, timed);
    results.push_back(r);
    std::printf("%10d %13.3f %13.3f %14.3f %14.3f %14.3f %10zu %10zu\n", r.targets, r.cpu_ms_median,
                r.cpu_ms_min, r.ms_per_scan_median, r.ms_per_scan_min, r.us_per_target, r.tracks,
                r.tracked);
    std::fflush(stdout);
  }
  if (!json.empty()) {
    FILE* f = std::fopen(json.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "bench_track: cannot write %s\n", json.c_str());
      return 1;
    }
    std::fprintf(f, "{\"benchmark\": \"bench_track\", \"results\": [");
    for (std::size_t i = 0; i < results.size(); ++i) {
      const Result& r = results[i];
      std::fprintf(f,
                   "%s{\"targets\": %d, \"cpu_ms_per_scan_median\": %.4f, "
                   "\"cpu_ms_per_scan_min\": %.4f, "
                   "\"ms_per_scan_median\": %.4f, \"ms_per_scan_min\": %.4f, "
                   "\"cpu_us_per_target\": %.4f, \"tracks\": %zu, \"tracked\": %zu}",
                   i ? ", " : "", r.targets, r.cpu_ms_median, r.cpu_ms_min, r.ms_per_scan_median,
                   r.ms_per_scan_min, r.us_per_target, r.tracks, r.tracked);
    }
    std::fprintf(f, "]}\n");
    std::fclose(f);
  }
  return 0;
}
