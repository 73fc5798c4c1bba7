// The re-sent video: each reduction keeps the strongest echo of what it merges, and every
// datagram decodes with the CAT240 decoder.
#include <gtest/gtest.h>

#include <vector>

#include "app/asterix/cat240_decoder.hpp"
#include "app/common/check.hpp"
#include "app/serve/video_reducer.hpp"

namespace sweepline::serve {
namespace {

cat240::Record radial(uint16_t az, uint16_t next_az, std::vector<uint8_t> cells) {
  cat240::Record r;
  r.sac = 0;
  r.sic = 1;
  r.type = cat240::MessageType::Video;
  r.msg_index = 77;
  cat240::VideoHeader h;
  h.start_az = az;
  h.end_az = next_az;
  h.start_rg = 0;
  h.cell_dur = 36196916;
  h.unit = cat240::CellDurUnit::Femto;
  r.header = h;
  r.res_bits = 8;
  r.nb_cells = uint32_t(cells.size());
  r.cells = std::move(cells);
  r.tod = 128 * 3600;
  return r;
}

std::vector<cat240::Record> decode_all(const std::vector<std::vector<uint8_t>>& datagrams) {
  cat240::Decoder dec;
  std::vector<cat240::Record> out;
  for (const auto& d : datagrams) dec.decode(d, 0, out);
  EXPECT_EQ(dec.stats().error_count(), 0u);
  return out;
}

std::vector<std::vector<uint8_t>> run(VideoReducer& v, const std::vector<cat240::Record>& in) {
  std::vector<std::vector<uint8_t>> out;
  const DatagramSink sink = [&](std::vector<uint8_t>&& d) { out.push_back(std::move(d)); };
  v.push(in, sink);
  v.flush(sink);
  return out;
}

TEST(VideoReducer, FullVideoIsResentUnchanged) {
  VideoReducer v(VideoReduction{});
  std::vector<cat240::Record> in;
  for (int i = 0; i < 8; ++i)
    in.push_back(radial(uint16_t(i * 16), uint16_t(i * 16 + 16),
                        std::vector<uint8_t>(100, uint8_t(i * 10))));
  const auto recs = decode_all(run(v, in));
  ASSERT_EQ(recs.size(), 8u);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(recs[size_t(i)].cells, in[size_t(i)].cells);
    EXPECT_EQ(recs[size_t(i)].header->start_az, in[size_t(i)].header->start_az);
    EXPECT_EQ(*recs[size_t(i)].msg_index, uint32_t(i));  // the stream's own message index
    EXPECT_EQ(*recs[size_t(i)].tod, *in[size_t(i)].tod);
  }
}

TEST(VideoReducer, RangeDecimationKeepsTheStrongestCell) {
  VideoReduction red;
  red.range_decimation = 4;
  VideoReducer v(red);
  std::vector<uint8_t> cells(10, 0);
  cells[5] = 200;  // one strong cell in the second group of four
  cells[9] = 30;   // the short last group
  const auto recs = decode_all(run(v, {radial(0, 16, cells)}));
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].cells, (std::vector<uint8_t>{0, 200, 30}));
  EXPECT_EQ(recs[0].header->cell_dur, 4u * 36196916u);
}

TEST(VideoReducer, AzimuthDecimationMergesRadialsByTheirMaximum) {
  VideoReduction red;
  red.azimuth_decimation = 3;
  VideoReducer v(red);
  std::vector<cat240::Record> in;
  for (int i = 0; i < 7; ++i) {
    std::vector<uint8_t> c(4, 10);
    c[size_t(i % 4)] = uint8_t(100 + i);
    in.push_back(radial(uint16_t(i * 16), uint16_t(i * 16 + 16), c));
  }
  const auto recs = decode_all(run(v, in));
  ASSERT_EQ(recs.size(), 3u);  // 3 + 3 + the last one alone, sent at the flush
  EXPECT_EQ(recs[0].header->start_az, 0);
  EXPECT_EQ(recs[0].header->end_az, 48);
  EXPECT_EQ(recs[0].cells, (std::vector<uint8_t>{100, 101, 102, 10}));
  EXPECT_EQ(recs[1].cells, (std::vector<uint8_t>{104, 105, 10, 103}));
  EXPECT_EQ(recs[2].header->start_az, 96);
}

TEST(VideoReducer, AGroupDoesNotStraddleNorth) {
  VideoReduction red;
  red.azimuth_decimation = 4;
  VideoReducer v(red);
  const std::vector<cat240::Record> in = {radial(65000, 65200, {1}), radial(65200, 65400, {2}),
                                          radial(0, 200, {3}), radial(200, 400, {4})};
  const auto recs = decode_all(run(v, in));
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].cells, (std::vector<uint8_t>{2}));
  EXPECT_EQ(recs[1].cells, (std::vector<uint8_t>{4}));
}

TEST(VideoReducer, FourBitZlibDecodesToTheQuantisedLevels) {
  VideoReduction red;
  red.res_bits = 4;
  red.compress = true;
  VideoReducer v(red);
  std::vector<uint8_t> cells(512, 0);
  for (size_t i = 0; i < cells.size(); ++i) cells[i] = uint8_t(i);
  const auto datagrams = run(v, {radial(0, 16, cells)});
  const auto recs = decode_all(datagrams);
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_TRUE(recs[0].compressed);
  EXPECT_EQ(recs[0].res_bits, 4);
  ASSERT_EQ(recs[0].cells.size(), cells.size());
  for (size_t i = 0; i < cells.size(); ++i) {
    const int q = (cells[i] * 15 + 127) / 255;
    EXPECT_EQ(recs[0].cells[i], q * 255 / 15) << i;
  }
}

TEST(VideoReducer, SmallRecordsArePackedUnderTheMtu) {
  VideoReduction red;
  red.range_decimation = 16;
  VideoReducer v(red);
  std::vector<cat240::Record> in;
  for (int i = 0; i < 200; ++i)
    in.push_back(radial(uint16_t(i * 16), uint16_t(i * 16 + 16), std::vector<uint8_t>(1024, 9)));
  const auto datagrams = run(v, in);
  EXPECT_LT(datagrams.size(), 50u);
  for (const auto& d : datagrams) EXPECT_LE(d.size(), kPackedDatagramMax);
  EXPECT_EQ(decode_all(datagrams).size(), 200u);
  EXPECT_EQ(v.records_out(), 200u);
}

TEST(VideoReducer, RefusesFactorsOutOfRange) {
  VideoReduction red;
  red.range_decimation = 0;
  EXPECT_THROW(VideoReducer{red}, Error);
  red.range_decimation = 1;
  red.res_bits = 3;
  EXPECT_THROW(VideoReducer{red}, Error);
  red.res_bits = 4;
  red.azimuth_decimation = kMaxAzimuthDecimation + 1;
  EXPECT_THROW(VideoReducer{red}, Error);
  EXPECT_EQ(describe(VideoReduction{}), "full");
  VideoReduction r2;
  r2.range_decimation = 2;
  r2.res_bits = 4;
  r2.compress = true;
  EXPECT_EQ(describe(r2), "range/2, 4-bit, zlib");
}

}  // namespace
}  // namespace sweepline::serve
