// The two samples from an independent encoder decode to the values listed in EXPECTED.json.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>

#include "app/asterix/cat240_decoder.hpp"
#include "app/capture/capture_reader.hpp"

namespace sweepline {
namespace {

namespace fs = std::filesystem;
using cat240::MessageType;
using cat240::Record;

fs::path data_dir() {
  return fs::path(SWEEPLINE_SHARED_DIR) / "data";
}

nlohmann::json expected_or_skip(const std::string& name, bool& skip) {
  const auto p = data_dir() / "EXPECTED.json";
  skip = !fs::exists(p) || !fs::exists(data_dir() / name);
  if (skip) return {};
  std::ifstream in(p);
  return nlohmann::json::parse(in).at(name);
}

std::vector<Record> decode_all(const std::string& name, capture::CaptureFormat want_format,
                               cat240::DecodeStats& stats) {
  auto reader = capture::open_capture((data_dir() / name).string());
  EXPECT_EQ(reader->format(), want_format);
  cat240::Decoder dec;
  std::vector<Record> out;
  capture::Datagram d;
  while (reader->next(d)) dec.decode(d.payload, d.time, out);
  stats = dec.stats();
  return out;
}

TEST(SharedSamples, Basic8BitNanoPcap) {
  bool skip = false;
  const auto e = expected_or_skip("basic_8bit_nano.pcap", skip);
  if (skip) GTEST_SKIP() << "shared data not found under " << data_dir();
  cat240::DecodeStats st;
  const auto recs = decode_all("basic_8bit_nano.pcap", capture::CaptureFormat::Pcap, st);
  EXPECT_TRUE(st.errors.empty());
  ASSERT_EQ(recs.size(), e["records"].get<size_t>());
  EXPECT_EQ(st.video, e["video"].get<uint64_t>());
  EXPECT_EQ(st.summaries, e["summaries"].get<uint64_t>());
  std::vector<const Record*> video;
  for (const auto& r : recs) {
    EXPECT_EQ(r.sac, e["sac"].get<int>());
    EXPECT_EQ(r.sic, e["sic"].get<int>());
    EXPECT_GT(r.capture_time, 1e9);  // pcap times are since the epoch
    if (r.type == MessageType::Summary) {
      EXPECT_EQ(r.summary, e["summary_text"].get<std::string>());
      continue;
    }
    video.push_back(&r);
    ASSERT_TRUE(r.header);
    EXPECT_EQ(r.header->unit, cat240::CellDurUnit::Nano);
    EXPECT_EQ(r.header->cell_dur, e["cell_dur_ns"].get<uint32_t>());
    EXPECT_EQ(r.header->start_rg, e["start_rg"].get<uint32_t>());
    EXPECT_EQ(static_cast<uint16_t>(r.header->end_az - r.header->start_az),
              e["radial_width_lsb"].get<int>());
    EXPECT_EQ(r.res_bits, e["bits"].get<int>());
    EXPECT_EQ(r.nb_cells, e["cells"].get<uint32_t>());
    EXPECT_EQ(r.cells.size(), r.nb_cells);
    EXPECT_EQ(r.tod.has_value(), e["tod_present"].get<bool>());
  }
  ASSERT_FALSE(video.empty());
  ASSERT_TRUE(video.front()->msg_index);
  EXPECT_EQ(*video.front()->msg_index, e["first_msg_index"].get<uint32_t>());
  for (size_t i = 1; i < video.size(); ++i)
    EXPECT_EQ(*video[i]->msg_index, *video[i - 1]->msg_index + 1) << "lost message at " << i;
  // The target: cells 20..25 at full scale on radials 62..66 of each rotation.
  const int per_rot = e["radials_per_rotation"].get<int>();
  for (const Record* r : video) {
    const int radial = r->header->start_az / (65536 / per_rot);
    const bool on_target_radial = radial >= 62 && radial <= 66;
    for (int c = 20; c <= 25; ++c) {
      if (on_target_radial) {
        EXPECT_EQ(r->cells[c], 255) << "radial " << radial << " cell " << c;
      }
    }
    if (radial < 60 || radial > 68) {
      for (int c = 20; c <= 25; ++c) {
        EXPECT_LT(r->cells[c], 255) << "radial " << radial;
      }
    }
  }
}

TEST(SharedSamples, Compressed4BitFemtoRaw) {
  bool skip = false;
  const auto e = expected_or_skip("compressed_4bit_femto.ast", skip);
  if (skip) GTEST_SKIP() << "shared data not found under " << data_dir();
  cat240::DecodeStats st;
  const auto recs = decode_all("compressed_4bit_femto.ast", capture::CaptureFormat::Raw, st);
  EXPECT_TRUE(st.errors.empty());
  ASSERT_EQ(recs.size(), e["records"].get<size_t>());
  EXPECT_EQ(st.video, e["video"].get<uint64_t>());
  std::set<uint16_t> azimuths;
  for (size_t i = 0; i < recs.size(); ++i) {
    const Record& r = recs[i];
    EXPECT_EQ(r.sac, e["sac"].get<int>());
    EXPECT_EQ(r.sic, e["sic"].get<int>());
    ASSERT_EQ(r.type, MessageType::Video);
    ASSERT_TRUE(r.header);
    EXPECT_EQ(r.header->unit, cat240::CellDurUnit::Femto);
    EXPECT_EQ(r.header->cell_dur, e["cell_dur_fs"].get<uint32_t>());
    EXPECT_EQ(r.header->start_rg, e["start_rg"].get<uint32_t>());
    EXPECT_EQ(r.header->start_az, r.header->end_az);  // zero-width radials
    EXPECT_TRUE(r.compressed);
    EXPECT_EQ(r.res_bits, e["bits"].get<int>());
    EXPECT_EQ(r.nb_cells, e["cells"].get<uint32_t>());
    ASSERT_EQ(r.cells.size(), r.nb_cells);
    ASSERT_TRUE(r.msg_index);
    EXPECT_EQ(*r.msg_index, e["first_msg_index"].get<uint32_t>() + i);
    azimuths.insert(r.header->start_az);
    // Radials 126..130 hold value 15 (255 after scaling) in cells 20..25.
    const int radial = static_cast<int>(i);
    if (radial >= 126 && radial <= 130) {
      for (int c = 20; c <= 25; ++c) {
        EXPECT_EQ(r.cells[c], 255) << "radial " << radial;
      }
    }
  }
  EXPECT_EQ(azimuths.size(), 512u);
  // The radial index is the azimuth: 512 radials, 128 LSB apart.
  EXPECT_EQ(recs[128].header->start_az, 128 * 128);
}

}  // namespace
}  // namespace sweepline
