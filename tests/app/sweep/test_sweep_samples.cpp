// Both shared samples, read through the capture reader and the decoder, assemble into frames
// where the target appears at the radials and cells EXPECTED.json states.
#include "tests/support/shared_data.hpp"
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "app/asterix/cat240_decoder.hpp"
#include "app/capture/capture_reader.hpp"
#include "app/sweep/sweep_assembler.hpp"

using namespace sweepline;
using namespace sweepline::sweep;

namespace {

std::string sample(const char* name) {
  return std::string(SWEEPLINE_SHARED_DIR) + "/data/" + name;
}

// Reads every record of a capture into the assembler; returns the video records seen.
std::vector<cat240::Record> assemble(const std::string& path, SweepAssembler& a) {
  auto reader = capture::open_capture(path);
  cat240::Decoder dec;
  std::vector<cat240::Record> recs;
  capture::Datagram d;
  while (reader->next(d)) dec.decode(d.payload, d.time, recs);
  for (const auto& r : recs) a.add(r);
  a.flush();
  EXPECT_EQ(dec.stats().error_count(), 0u);
  return recs;
}

// The azimuth row at the centre of a radial.
int centre_row(const cat240::VideoHeader& h, int rows, double next_start) {
  double s = h.start_az, e = h.end_az == h.start_az ? next_start : double(h.end_az);
  if (e <= s) e += 65536;
  return int(std::floor((s + e) / 2 * rows / 65536)) % rows;
}

}  // namespace

TEST(SweepSamples, Basic8BitNanoTargetAtRadials62To66Cells20To25) {
  SWL_SKIP_WITHOUT_SHARED_DATA();
  SweepConfig cfg;
  cfg.azimuths = 4096;
  cfg.range_bins = 64;  // the data's own range (0 = from the first radial): one cell per bin
  SweepAssembler a(cfg);
  const auto recs = assemble(sample("basic_8bit_nano.pcap"), a);
  std::vector<cat240::VideoHeader> radials;
  for (const auto& r : recs)
    if (r.type == cat240::MessageType::Video) radials.push_back(*r.header);
  ASSERT_EQ(radials.size(), 512u);
  EXPECT_NEAR(a.frame().range_m, 64 * 250e-9 * kSpeedOfLight / 2, 1e-6);
  // The second rotation is what the frame shows; its radial k is radials[256 + k].
  for (int k = 0; k < 256; ++k) {
    const auto& h = radials[size_t(256 + k)];
    EXPECT_EQ((h.end_az - h.start_az + 65536) % 65536, 256) << k;
    const int row = centre_row(h, cfg.azimuths, 0);
    const uint8_t* cells = a.frame().row(row);
    const bool target_radial = k >= 62 && k <= 66;
    for (int c = 20; c <= 25; ++c) {
      if (target_radial) {
        EXPECT_EQ(cells[c], 255) << "radial " << k << " cell " << c;
      }
    }
    if (!target_radial) {
      int full = 0;
      for (int c = 20; c <= 25; ++c) full += cells[c] == 255;
      EXPECT_LT(full, 6) << "no target on radial " << k;
    }
  }
  // The target is about 90 degrees.
  const double deg = radials[256 + 64].start_az * 360.0 / 65536;
  EXPECT_NEAR(deg, 90, 3);
  EXPECT_EQ(a.counters().rotations, 1u);
  ASSERT_EQ(a.rotation_stats().size(), 1u);
  EXPECT_EQ(a.rotation_stats()[0].radials, 256u);
  EXPECT_EQ(a.rotation_stats()[0].rows_empty, 0);
  EXPECT_EQ(a.counters().summaries, 2u);
}

TEST(SweepSamples, Compressed4BitFemtoTargetAtRadials126To130Cells20To25) {
  SWL_SKIP_WITHOUT_SHARED_DATA();
  SweepConfig cfg;
  cfg.azimuths = 512;
  cfg.range_bins = 310;  // START_RG 10 + 300 cells: cell i lands on bin 10 + i
  SweepAssembler a(cfg);
  const auto recs = assemble(sample("compressed_4bit_femto.ast"), a);
  ASSERT_EQ(recs.size(), 512u);
  ASSERT_EQ(recs[0].header->start_rg, 10u);
  EXPECT_NEAR(a.frame().range_m, 310 * 66666667e-15 * kSpeedOfLight / 2, 1e-6);
  for (int k = 0; k < 512; ++k) {
    const auto& h = *recs[size_t(k)].header;
    ASSERT_EQ(h.start_az, h.end_az) << "zero-width radials";
    const double next = recs[size_t((k + 1) % 512)].header->start_az;
    const int row = centre_row(h, cfg.azimuths, next);
    const uint8_t* bins = a.frame().row(row);
    const bool target_radial = k >= 126 && k <= 130;
    int full = 0;
    for (int c = 20; c <= 25; ++c) full += bins[10 + c] == 255;  // 4-bit 15 -> 255
    if (target_radial) {
      EXPECT_EQ(full, 6) << "radial " << k;
    } else {
      EXPECT_LT(full, 6) << "radial " << k;
    }
    EXPECT_EQ(bins[0], 0) << "bins before START_RG stay empty";
  }
  EXPECT_NEAR(recs[128].header->start_az * 360.0 / 65536, 90, 3);
  // Zero-width radials fill the circle without holes.
  EXPECT_EQ(a.current_rotation().rows_written, 512);
}

TEST(SweepSamples, DefaultGeometryShowsBothTargets) {
  SWL_SKIP_WITHOUT_SHARED_DATA();
  // The default 4096 x 4096 frame: the target cells spread over several bins each.
  for (const char* name : {"basic_8bit_nano.pcap", "compressed_4bit_femto.ast"}) {
    SweepAssembler a;
    assemble(sample(name), a);
    const PolarFrame& f = a.frame();
    const int row = int(90.0 / 360 * f.azimuths);
    // Cells 20..25 of 64 (data range) or of 310 bins' worth (START_RG 10): find full-scale bins.
    int first = -1, last = -1;
    for (int b = 0; b < f.range_bins; ++b)
      if (f.row(row)[b] == 255) {
        if (first < 0) first = b;
        last = b;
      }
    ASSERT_GE(first, 0) << name;
    const bool basic = std::string(name).find("basic") != std::string::npos;
    const double cells_total = basic ? 64 : 310, offset = basic ? 0 : 10;
    EXPECT_NEAR(first, (offset + 20) / cells_total * f.range_bins, 2) << name;
    EXPECT_NEAR(last + 1, (offset + 26) / cells_total * f.range_bins, 2) << name;
  }
}
