#pragma once
// Shared by the simulator tests: run the simulator into a temporary capture, read it back through
// the project's reader, decoder and sweep assembler (one frame per rotation), and a deliberately
// simple blob finder on polar frames to compare against the ground truth.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/asterix/cat240_decoder.hpp"
#include "app/capture/capture_reader.hpp"
#include "app/common/polar_frame.hpp"
#include "app/sim/scenario.hpp"
#include "app/sim/sim_run.hpp"
#include "app/sweep/sweep_assembler.hpp"

namespace sweepline::simtest {

// A per-process scratch folder, removed when the test program exits (captures are large).
struct ScratchDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("swl_sim_test_" + std::to_string(getpid()));
  ScratchDir() { std::filesystem::create_directories(path); }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

inline std::string temp_path(const std::string& name) {
  static ScratchDir dir;
  return (dir.path / name).string();
}

inline std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

struct Truth {
  uint64_t rotation;
  int id;
  double range_m, bearing_deg, x_m, y_m, length_m, heading_deg;
};

inline std::vector<Truth> read_truth(const std::string& path) {
  std::vector<Truth> out;
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line)) {
    auto j = nlohmann::json::parse(line);
    if (j.value("own", false)) continue;  // own-ship lines (a moving own ship)
    out.push_back({j.at("rotation").get<uint64_t>(), j.at("id").get<int>(),
                   j.at("range_m").get<double>(), j.at("bearing_deg").get<double>(),
                   j.at("x_m").get<double>(), j.at("y_m").get<double>(),
                   j.at("length_m").get<double>(), j.at("heading_deg").get<double>()});
  }
  return out;
}

// Reads a capture through open_capture + Decoder + SweepAssembler; returns one frame per
// rotation (keyed by the rotation number in the simulator's Video Summary), plus every record.
struct Replayed {
  std::map<uint64_t, PolarFrame> frames;
  std::vector<cat240::Record> records;  // without cells (headers only), in order
  std::vector<size_t> datagram_sizes;
  std::vector<size_t> records_per_datagram;
  uint64_t decode_errors = 0;
};

inline Replayed replay(const std::string& path, const sim::Scenario& s) {
  Replayed out;
  auto reader = capture::open_capture(path);
  cat240::Decoder dec;
  sweep::SweepConfig cfg;
  cfg.azimuths = s.radar.radials;
  cfg.range_bins = s.radar.cells;
  cfg.range_m = s.radar.range_m();
  sweep::SweepAssembler asm_(cfg);
  capture::Datagram d;
  std::vector<cat240::Record> recs;
  bool have_rotation = false;
  uint64_t rotation = 0;
  while (reader->next(d)) {
    recs.clear();
    dec.decode(d.payload, d.time, recs);
    out.datagram_sizes.push_back(d.payload.size());
    out.records_per_datagram.push_back(recs.size());
    for (auto& r : recs) {
      if (r.type == cat240::MessageType::Summary) {
        auto pos = r.summary.find("rotation=");
        if (pos != std::string::npos) {
          if (have_rotation) {
            asm_.flush();
            out.frames[rotation] = asm_.frame();
          }
          rotation = std::stoull(r.summary.substr(pos + 9));
          have_rotation = true;
        }
      } else {
        asm_.add(r);
      }
      cat240::Record h = r;
      h.cells.clear();
      out.records.push_back(std::move(h));
    }
  }
  asm_.flush();
  if (have_rotation) out.frames[rotation] = asm_.frame();
  out.decode_errors = dec.stats().error_count();
  return out;
}

// One blob of cells >= threshold (8-connected, wrapping in azimuth).
struct Blob {
  double row = 0, bin = 0;  // intensity-weighted centroid (row may lie outside [0, rows))
  int cells = 0;
  int peak = 0;
};

inline std::vector<Blob> find_blobs(const PolarFrame& f, int threshold) {
  const int rows = f.azimuths, bins = f.range_bins;
  std::vector<uint8_t> seen(f.cells.size(), 0);
  std::vector<Blob> blobs;
  std::vector<std::pair<int, int>> stack;
  for (int a = 0; a < rows; ++a)
    for (int b = 0; b < bins; ++b) {
      const size_t i = size_t(a) * bins + b;
      if (seen[i] || f.cells[i] < threshold) continue;
      // Flood fill; rows are unwrapped relative to the seed so the centroid is continuous.
      Blob bl;
      double w = 0, sr = 0, sb = 0;
      seen[i] = 1;
      stack.push_back({a, b});
      while (!stack.empty()) {
        auto [ua, ub] = stack.back();
        stack.pop_back();
        const int ra = ((ua % rows) + rows) % rows;
        const int v = f.cells[size_t(ra) * bins + ub];
        const double wt = v - threshold + 1;
        w += wt;
        sr += wt * ua;
        sb += wt * ub;
        ++bl.cells;
        bl.peak = std::max(bl.peak, v);
        for (int da = -1; da <= 1; ++da)
          for (int db = -1; db <= 1; ++db) {
            const int na = ua + da, nb = ub + db;
            if (nb < 0 || nb >= bins) continue;
            const int wa = ((na % rows) + rows) % rows;
            const size_t j = size_t(wa) * bins + nb;
            if (seen[j] || f.cells[j] < threshold) continue;
            seen[j] = 1;
            stack.push_back({na, nb});
          }
      }
      bl.row = sr / w;
      bl.bin = sb / w;
      blobs.push_back(bl);
    }
  return blobs;
}

// Angle difference in degrees, wrapped to [-180, 180).
inline double angle_diff(double a, double b) {
  double d = std::fmod(a - b + 540.0, 360.0) - 180.0;
  return d;
}

// For every truth vessel of `rotation`, the blob whose centroid lies within one beamwidth in
// azimuth and one pulse length in range; fails the test for each vessel without one. Returns the
// number of vessels found.
inline int match_truth(const PolarFrame& f, const std::vector<Blob>& blobs,
                       const std::vector<Truth>& truth, uint64_t rotation, const sim::Scenario& s) {
  const double deg_per_row = 360.0 / f.azimuths, m_per_bin = f.range_m / f.range_bins;
  const double tol_deg = s.radar.beamwidth_deg, tol_m = std::max(s.radar.pulse_m, m_per_bin);
  int found = 0;
  for (const Truth& t : truth) {
    if (t.rotation != rotation) continue;
    bool ok = false;
    double best_deg = 1e9, best_m = 1e9;
    for (const Blob& b : blobs) {
      const double bearing = (b.row + 0.5) * deg_per_row, range = (b.bin + 0.5) * m_per_bin;
      const double dd = std::abs(angle_diff(bearing, t.bearing_deg)),
                   dr = std::abs(range - t.range_m);
      if (dd <= tol_deg && dr <= tol_m) ok = true;
      if (dd + dr / 100 < best_deg + best_m / 100) {
        best_deg = dd;
        best_m = dr;
      }
    }
    EXPECT_TRUE(ok) << "vessel " << t.id << " of rotation " << rotation << " at " << t.range_m
                    << " m, " << t.bearing_deg << " deg not found; nearest blob " << best_deg
                    << " deg / " << best_m << " m away";
    found += ok;
  }
  return found;
}

}  // namespace sweepline::simtest
