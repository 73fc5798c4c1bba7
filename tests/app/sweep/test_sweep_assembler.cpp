// Sweep assembly against a deliberately simple reference: every (cell, bin) pair and every
// (radial, row) pair is tested for overlap one by one, and rotations come from the generator's
// own unwrapped azimuth rather than from the assembler's north-crossing logic.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <random>
#include <vector>

#include "app/common/check.hpp"
#include "app/sweep/range_map.hpp"
#include "app/sweep/row_span.hpp"
#include "app/sweep/sweep_assembler.hpp"

using sweepline::PolarFrame;
using sweepline::RowSpan;
using namespace sweepline::cat240;
using namespace sweepline::sweep;

namespace {

constexpr double kC = 299792458.0;

struct Msg {
  uint32_t start_rg = 0;
  std::vector<uint8_t> cells;
};
struct Radial {
  int64_t start = 0;  // unwrapped raw azimuth (65536 per rotation)
  int64_t width = 0;  // 0 = zero-width radial
  uint32_t cell_dur = 250;
  CellDurUnit unit = CellDurUnit::Nano;
  std::vector<Msg> msgs;
};

Record make_record(const Radial& r, const Msg& m, double t = 0) {
  Record rec;
  rec.type = MessageType::Video;
  VideoHeader h;
  h.start_az = uint16_t(r.start & 0xFFFF);
  h.end_az = uint16_t((r.start + r.width) & 0xFFFF);
  h.start_rg = m.start_rg;
  h.cell_dur = r.cell_dur;
  h.unit = r.unit;
  rec.header = h;
  rec.cells = m.cells;
  rec.nb_cells = uint32_t(m.cells.size());
  rec.capture_time = t;
  return rec;
}

// Reference range rule: cell i covers [(rg+i), (rg+i+1)) * len, bin b covers [b, b+1) * w.
std::vector<uint8_t> ref_line(const Radial& r, int bins, double range_m) {
  std::vector<uint8_t> line(size_t(bins), 0);
  const double len = r.cell_dur * (r.unit == CellDurUnit::Nano ? 1e-9 : 1e-15) * kC / 2;
  const double w = range_m / bins;
  for (const Msg& m : r.msgs) {
    for (size_t i = 0; i < m.cells.size(); ++i) {
      const double a0 = (double(m.start_rg) + double(i)) * len;
      const double a1 = (double(m.start_rg) + double(i) + 1) * len;
      for (int b = 0; b < bins; ++b) {
        const double b0 = b * w, b1 = (b + 1) * w;
        if (std::min(a1, b1) - std::max(a0, b0) > 1e-6 * std::min(len, w))
          line[size_t(b)] = std::max(line[size_t(b)], m.cells[i]);
      }
    }
  }
  return line;
}

// Reference frame: rows whose raw-azimuth interval overlaps the radial's extent take the radial;
// the first write of a rotation clears the row; rows a finished rotation missed are cleared.
PolarFrame reference(const std::vector<Radial>& radials, int az, int bins, double range_m,
                     double max_fill_deg = 5.0) {
  PolarFrame f(az, bins, range_m);
  std::vector<int64_t> stamp(size_t(az), -1);
  int64_t current_rot = -1;
  // Radials in order; a zero-width radial's extent ends at the next radial's start, so the last
  // zero-width radial (still held back by the assembler) is left out.
  for (size_t j = 0; j < radials.size(); ++j) {
    const Radial& r = radials[j];
    int64_t end = r.start + r.width;
    bool one_row = false;
    if (r.width == 0) {
      if (j + 1 == radials.size()) break;
      end = radials[j + 1].start;
      if (end - r.start > int64_t(max_fill_deg * 65536 / 360) || end <= r.start) one_row = true;
    }
    const std::vector<uint8_t> line = ref_line(r, bins, range_m);
    for (int64_t R = (r.start / 65536) * az; R < (r.start / 65536 + 2) * az; ++R) {
      const double r0 = double(R) * 65536.0 / az, r1 = double(R + 1) * 65536.0 / az;
      bool hit = one_row ? (r0 <= double(r.start) && double(r.start) < r1)
                         : (std::min(r1, double(end)) > std::max(r0, double(r.start)));
      if (!hit) continue;
      const int64_t rot = R / az;
      if (rot > current_rot) {
        for (int row = 0; row < az && current_rot >= 0; ++row)
          if (stamp[size_t(row)] >= 0 && stamp[size_t(row)] < current_rot) {
            std::fill_n(f.row(row), bins, 0);
            stamp[size_t(row)] = -1;
          }
        current_rot = rot;
      }
      uint8_t* row = f.row(int(R % az));
      if (stamp[size_t(R % az)] != rot) {
        std::fill_n(row, bins, 0);
        stamp[size_t(R % az)] = rot;
      }
      for (int b = 0; b < bins; ++b) row[b] = std::max(row[b], line[size_t(b)]);
    }
  }
  return f;
}

void feed(SweepAssembler& a, const std::vector<Radial>& radials) {
  for (const Radial& r : radials)
    for (const Msg& m : r.msgs) a.add(make_record(r, m));
}

// A sweep of `azimuths` rows and `range_bins` bins over the range of `cells` 250 ns cells.
SweepConfig nano_config(int azimuths, int range_bins, int cells) {
  SweepConfig cfg;
  cfg.azimuths = azimuths;
  cfg.range_bins = range_bins;
  cfg.range_m = cells * 250e-9 * kC / 2;
  return cfg;
}

std::vector<uint8_t> random_cells(std::mt19937& rng, size_t n) {
  std::vector<uint8_t> c(n);
  for (auto& v : c) v = uint8_t(rng() % 256);
  return c;
}

::testing::AssertionResult frames_equal(const PolarFrame& got, const PolarFrame& want) {
  for (int r = 0; r < want.azimuths; ++r)
    for (int b = 0; b < want.range_bins; ++b)
      if (got.row(r)[b] != want.row(r)[b])
        return ::testing::AssertionFailure()
               << "row " << r << " bin " << b << ": got " << int(got.row(r)[b]) << " want "
               << int(want.row(r)[b]);
  return ::testing::AssertionSuccess();
}

}  // namespace

TEST(SweepRangeMap, MatchesReferenceOnRandomGeometries) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 400; ++trial) {
    Radial r;
    r.unit = rng() % 2 ? CellDurUnit::Nano : CellDurUnit::Femto;
    r.cell_dur = r.unit == CellDurUnit::Nano ? 10 + rng() % 500 : 1000000 + rng() % 200000000;
    Msg m;
    m.start_rg = rng() % 4 == 0 ? 0 : rng() % 300;
    m.cells = random_cells(rng, 1 + rng() % 300);
    r.msgs.push_back(m);
    const int bins = 1 + int(rng() % 200);
    const double len = r.cell_dur * (r.unit == CellDurUnit::Nano ? 1e-9 : 1e-15) * kC / 2;
    // Display ranges from much shorter to much longer than the data.
    const double range_m = len * (m.start_rg + m.cells.size()) * (0.2 + (rng() % 1000) / 400.0);
    const auto want = ref_line(r, bins, range_m);
    RangeMap map({m.start_rg, uint32_t(m.cells.size()), r.cell_dur, r.unit}, bins, range_m);
    std::vector<uint8_t> got(size_t(bins), 0);
    map.apply_max(m.cells, got.data());
    ASSERT_EQ(got, want) << "trial " << trial << " bins " << bins << " range " << range_m;
    std::vector<uint8_t> stored(size_t(bins), 77);
    map.apply_store(m.cells, stored.data());
    for (int b = 0; b < bins; ++b) {
      const bool inside = b >= map.first_bin() && b < map.end_bin();
      ASSERT_EQ(stored[size_t(b)], inside ? want[size_t(b)] : 77) << "trial " << trial;
    }
  }
}

TEST(SweepRangeMap, EqualGridsDoNotBleed) {
  // 1:1 cells to bins must copy, not smear a cell into its neighbour through rounding.
  const uint32_t n = 4096;
  const double len = 250e-9 * kC / 2;
  RangeMap map({0, n, 250, CellDurUnit::Nano}, 4096, len * n);
  std::vector<uint8_t> cells(n, 0);
  cells[1000] = 200;
  std::vector<uint8_t> line(4096, 0);
  map.apply_max(cells, line.data());
  EXPECT_EQ(line[1000], 200);
  EXPECT_EQ(line[999], 0);
  EXPECT_EQ(line[1001], 0);
  EXPECT_EQ(map.first_bin(), 0);
  EXPECT_EQ(map.end_bin(), 4096);
}

TEST(SweepRowSpan, MergeCoversEveryRowAndStaysShortForSweeps) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 2000; ++trial) {
    const int rows = 1 + int(rng() % 64);
    RowSpan s;
    std::vector<bool> touched(size_t(rows), false);
    for (int k = 0; k < 1 + int(rng() % 4); ++k) {
      const int first = int(rng() % rows), count = int(rng() % (rows + 2));
      s = merge_rows(s, first, count, rows);
      for (int i = 0; i < std::min(count, rows); ++i) touched[size_t((first + i) % rows)] = true;
    }
    for (int r = 0; r < rows; ++r) {
      if (touched[size_t(r)]) {
        ASSERT_TRUE(span_contains(s, r, rows)) << trial << " row " << r;
      }
    }
    ASSERT_GE(s.first, 0);
    ASSERT_LT(s.first, rows);
    ASSERT_LE(s.count, rows);
  }
  // A sweep across north gives one wrapped span of exactly the rows written.
  RowSpan s;
  for (int r = 60; r < 64 + 5; ++r) s = merge_rows(s, r % 64, 1, 64);
  EXPECT_EQ(s.first, 60);
  EXPECT_EQ(s.count, 9);
}

// Random sequences in every azimuth style against the reference.
struct Style {
  const char* name;
  int radials_per_rot;
  int width_mode;  // 0: width = spacing, 1: zero-width, 2: width 25 (non-aligned), 3: wide
  int split;       // messages per radial
};

class SweepAssemblerStyles : public ::testing::TestWithParam<Style> {};

TEST_P(SweepAssemblerStyles, MatchesReference) {
  const Style st = GetParam();
  std::mt19937 rng(11);
  const int az = 256, bins = 96;
  const uint32_t cells = 80;
  const double len = 250e-9 * kC / 2;
  const double range_m = len * cells * 1.1;
  std::vector<Radial> radials;
  const double spacing = 65536.0 / st.radials_per_rot;
  const int64_t offset = 65536 - int64_t(spacing * 3.5);  // starts shortly before north
  const int total = int(st.radials_per_rot * 2.6);
  for (int j = 0; j < total; ++j) {
    Radial r;
    r.start = offset + int64_t(std::llround(j * spacing));
    const int64_t next = offset + int64_t(std::llround((j + 1) * spacing));
    r.width = st.width_mode == 0   ? next - r.start
              : st.width_mode == 1 ? 0
              : st.width_mode == 2 ? 25
                                   : 3 * (next - r.start);
    for (int k = 0; k < st.split; ++k) {
      Msg m;
      m.start_rg = uint32_t(k * cells / st.split);
      m.cells = random_cells(rng, cells / st.split + (k == 0 ? 3 : 0));  // overlapping parts
      r.msgs.push_back(m);
    }
    radials.push_back(r);
  }
  SweepConfig cfg;
  cfg.azimuths = az;
  cfg.range_bins = bins;
  cfg.range_m = range_m;
  SweepAssembler a(cfg);
  feed(a, radials);
  const PolarFrame want = reference(radials, az, bins, range_m);
  EXPECT_TRUE(frames_equal(a.frame(), want)) << st.name;
  EXPECT_EQ(a.frame().rotation, uint64_t(radials.back().start / 65536)) << st.name;
  EXPECT_EQ(a.counters().radials, uint64_t(total));
  EXPECT_EQ(a.counters().video_messages, uint64_t(total * st.split));
}

INSTANTIATE_TEST_SUITE_P(
    Styles, SweepAssemblerStyles,
    ::testing::Values(Style{"contiguous_256", 256, 0, 1}, Style{"contiguous_100", 100, 0, 1},
                      Style{"narrow_1000_per_256_rows", 1000, 0, 1},
                      Style{"zero_width_180", 180, 1, 1}, Style{"zero_width_split", 90, 1, 3},
                      Style{"nonaligned_25", 2621, 2, 1}, Style{"wide_overlapping", 64, 3, 1},
                      Style{"split_contiguous", 128, 0, 4}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(SweepAssembler, ZeroWidthRadialFillsUpToNextStartAndFlushUsesLastWidth) {
  SweepConfig cfg = nano_config(64, 8, 8);  // 1024 raw LSB per row
  cfg.max_fill_deg = 30;                    // the 3-row gap below is 16.9 degrees
  SweepAssembler a(cfg);
  Radial r1{4096, 0, 250, CellDurUnit::Nano, {{0, std::vector<uint8_t>(8, 50)}}};
  Radial r2{4096 + 3 * 1024, 0, 250, CellDurUnit::Nano, {{0, std::vector<uint8_t>(8, 90)}}};
  a.add(make_record(r1, r1.msgs[0]));
  EXPECT_EQ(a.frame().row(4)[0], 0) << "held back until the next radial";
  a.add(make_record(r2, r2.msgs[0]));
  for (int row = 4; row < 7; ++row) EXPECT_EQ(a.frame().row(row)[3], 50) << row;
  EXPECT_EQ(a.frame().row(7)[3], 0);
  a.flush();
  for (int row = 7; row < 10; ++row) EXPECT_EQ(a.frame().row(row)[3], 90) << row;
  EXPECT_EQ(a.frame().row(10)[3], 0);
}

TEST(SweepAssembler, ZeroWidthGapBeyondLimitFillsOneRow) {
  SweepConfig cfg = nano_config(64, 8, 8);
  cfg.max_fill_deg = 10;  // 1820 LSB: under two rows
  SweepAssembler a(cfg);
  Radial r1{0, 0, 250, CellDurUnit::Nano, {{0, std::vector<uint8_t>(8, 50)}}};
  Radial r2{10 * 1024, 0, 250, CellDurUnit::Nano, {{0, std::vector<uint8_t>(8, 90)}}};
  a.add(make_record(r1, r1.msgs[0]));
  a.add(make_record(r2, r2.msgs[0]));
  EXPECT_EQ(a.frame().row(0)[0], 50);
  EXPECT_EQ(a.frame().row(1)[0], 0);
}

TEST(SweepAssembler, RadialOverNorthFillsBothEndsAndCountsARotation) {
  SweepConfig cfg = nano_config(64, 8, 8);
  SweepAssembler a(cfg);
  Radial r{65536 - 2048, 4096, 250, CellDurUnit::Nano, {{0, std::vector<uint8_t>(8, 70)}}};
  const Record rec = make_record(r, r.msgs[0]);
  ASSERT_LT(rec.header->end_az, rec.header->start_az);
  a.add(rec);
  for (int row : {62, 63, 0, 1}) EXPECT_EQ(a.frame().row(row)[0], 70) << row;
  EXPECT_EQ(a.frame().row(2)[0], 0);
  EXPECT_EQ(a.frame().row(61)[0], 0);
  EXPECT_EQ(a.frame().rotation, 1u);
  SweepAssembler b(cfg);
  b.take_dirty();
  b.add(rec);
  const RowSpan span = b.take_dirty();
  EXPECT_EQ(span.first, 62);
  EXPECT_EQ(span.count, 4);
}

TEST(SweepAssembler, MaxHoldAndSplitRadials) {
  SweepConfig cfg = nano_config(16, 10, 20);  // two cells per bin
  SweepAssembler a(cfg);
  Radial r{0, 4096, 250, CellDurUnit::Nano, {}};
  Msg near{0, {10, 200, 30, 40, 50, 60, 0, 0, 0, 0}};  // cells 0..9 -> bins 0..4
  Msg far{10, {1, 2, 3, 4, 5, 6, 7, 8, 9, 99}};        // cells 10..19 -> bins 5..9
  a.add(make_record(r, far));
  a.add(make_record(r, near));
  const uint8_t* row = a.frame().row(0);
  EXPECT_EQ(row[0], 200);  // max of cells 0 and 1
  EXPECT_EQ(row[1], 40);
  EXPECT_EQ(row[2], 60);
  EXPECT_EQ(row[5], 2);
  EXPECT_EQ(row[9], 99);
  EXPECT_EQ(a.counters().radials, 1u);
  EXPECT_EQ(a.counters().video_messages, 2u);
}

TEST(SweepAssembler, NextRotationClearsRowsAndBinsBeyondTheData) {
  SweepConfig cfg = nano_config(4, 8, 8);
  SweepAssembler a(cfg);
  auto radial = [](int q, size_t n, uint8_t v) {
    return Radial{q * 16384, 16384, 250, CellDurUnit::Nano, {{0, std::vector<uint8_t>(n, v)}}};
  };
  for (int q = 0; q < 4; ++q) {
    const Radial r = radial(q, 8, 100);
    a.add(make_record(r, r.msgs[0]));
  }
  // Next rotation: shorter radials, and quadrant 2 is never sent (blanked sector).
  for (int q : {0, 1, 3}) {
    const Radial r = radial(q, 3, 20);
    a.add(make_record(r, r.msgs[0]));
  }
  EXPECT_EQ(a.frame().row(0)[2], 20);
  EXPECT_EQ(a.frame().row(0)[3], 0) << "bins beyond this rotation's data are cleared";
  EXPECT_EQ(a.frame().row(2)[5], 100) << "not yet known to be missed";
  const Radial r0 = radial(0, 3, 20);
  a.add(make_record(r0, r0.msgs[0]));  // crosses north: rotation 1 ends
  EXPECT_EQ(a.frame().row(2)[5], 0) << "rows a rotation missed are cleared at its end";
  ASSERT_EQ(a.rotation_stats().size(), 2u);
  EXPECT_TRUE(a.rotation_stats()[0].partial);
  EXPECT_EQ(a.rotation_stats()[0].rows_empty, 0);
  EXPECT_EQ(a.rotation_stats()[1].rows_empty, 1);
  EXPECT_EQ(a.rotation_stats()[1].radials, 3u);
  EXPECT_FALSE(a.rotation_stats()[1].partial);
}

TEST(SweepAssembler, RotationPeriodFromTimeOfDayAcrossMidnight) {
  SweepConfig cfg = nano_config(64, 4, 4);
  SweepAssembler a(cfg);
  const double t0 = 86400.0 - 5.0;  // 5 s before midnight, 4 s per rotation
  for (int j = 0; j < 3 * 32; ++j) {
    Radial r{int64_t(j) * 2048, 2048, 250, CellDurUnit::Nano, {{0, {1, 2, 3, 4}}}};
    Record rec = make_record(r, r.msgs[0]);
    double t = t0 + j * (4.0 / 32);
    if (t >= 86400.0) t -= 86400.0;
    rec.tod = uint32_t(std::llround(t * 128));
    a.add(rec);
  }
  ASSERT_EQ(a.rotation_stats().size(), 2u);
  EXPECT_EQ(a.rotation_stats()[0].period_s, 0) << "first rotation starts mid-stream: unknown";
  EXPECT_NEAR(a.rotation_stats()[1].period_s, 4.0, 1.0 / 128);
  EXPECT_EQ(a.rotation_stats()[1].radials, 32u);
  EXPECT_EQ(a.rotation_stats()[1].messages, 32u);
  EXPECT_EQ(a.rotation_stats()[1].rows_empty, 0);
}

TEST(SweepAssembler, HandOffCopiesOnlyDirtyRowsAndWraps) {
  SweepConfig cfg = nano_config(32, 4, 4);
  SweepAssembler a(cfg);
  PolarFrame out;
  a.hand_off(out);  // first hand-off: everything
  EXPECT_EQ(out.dirty.count, 32);
  for (int j = 30; j < 34; ++j) {  // rows 30, 31, 0, 1
    Radial r{int64_t(j) * 2048, 2048, 250, CellDurUnit::Nano, {{0, {9, 9, 9, 9}}}};
    a.add(make_record(r, r.msgs[0]));
  }
  out.row(5)[0] = 123;  // a row the hand-off must not touch
  a.hand_off(out);
  EXPECT_EQ(out.dirty.first, 30);
  EXPECT_EQ(out.dirty.count, 4);
  EXPECT_EQ(out.row(5)[0], 123);
  for (int r : {30, 31, 0, 1}) EXPECT_EQ(out.row(r)[2], 9) << r;
  EXPECT_NEAR(out.sweep_azimuth_deg, 34 * 2048 * 360.0 / 65536 - 360, 1e-9);
  EXPECT_EQ(out.rotation, 1u);
  a.hand_off(out);
  EXPECT_EQ(out.dirty.count, 0);
}

TEST(SweepAssembler, RejectsRecordsItCannotPlace) {
  SweepAssembler a;
  Record no_header;
  a.add(no_header);
  Record summary;
  summary.type = MessageType::Summary;
  a.add(summary);
  Radial r{0, 16, 0, CellDurUnit::Nano, {{0, {1}}}};
  a.add(make_record(r, r.msgs[0]));
  EXPECT_EQ(a.counters().rejected.at("no_header"), 1u);
  EXPECT_EQ(a.counters().rejected.at("zero_cell_dur"), 1u);
  EXPECT_EQ(a.counters().summaries, 1u);
  EXPECT_EQ(a.counters().video_messages, 0u);
  EXPECT_THROW(SweepAssembler(SweepConfig{0, 10, 0, 5, true, 1}), sweepline::Error);
}

TEST(SweepAssembler, RandomRecordsNeverEscapeTheDirtySpanOrCrash) {
  // Adversarial headers: any azimuths, huge START_RG and CELL_DUR, empty and long radials.
  std::mt19937 rng(99);
  SweepConfig cfg;
  cfg.azimuths = 128;
  cfg.range_bins = 64;
  SweepAssembler a(cfg);
  PolarFrame seen;
  a.hand_off(seen);
  for (int k = 0; k < 3000; ++k) {
    Record rec;
    VideoHeader h;
    h.start_az = uint16_t(rng());
    h.end_az = rng() % 3 == 0 ? h.start_az : uint16_t(rng());
    h.start_rg = rng() % 4 == 0 ? uint32_t(rng()) : uint32_t(rng() % 100);
    h.cell_dur = rng() % 4 == 0 ? uint32_t(rng()) : uint32_t(1 + rng() % 1000);
    h.unit = rng() % 2 ? CellDurUnit::Nano : CellDurUnit::Femto;
    rec.header = h;
    rec.cells = random_cells(rng, rng() % 5 == 0 ? 0 : rng() % 200);
    rec.nb_cells = uint32_t(rec.cells.size());
    a.add(rec);
    if (k % 7 == 0) a.flush();
    if (k % 5 == 0) {
      const PolarFrame before = seen;
      a.hand_off(seen);
      for (int r = 0; r < cfg.azimuths; ++r) {
        if (!std::equal(before.row(r), before.row(r) + cfg.range_bins, a.frame().row(r))) {
          ASSERT_TRUE(span_contains(seen.dirty, r, cfg.azimuths))
              << "record " << k << " changed row " << r << " outside the dirty span";
        }
      }
      ASSERT_EQ(seen.cells, a.frame().cells);
    }
  }
  EXPECT_GT(a.counters().video_messages, 0u);
}
