// Encoder -> decoder round trips over every item, resolution, header kind, compression, video
// block item, RE/SP, multi-record blocks and multi-block datagrams.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "app/asterix/cat240_decoder.hpp"
#include "app/asterix/cat240_encoder.hpp"
#include "app/common/check.hpp"

namespace sweepline::cat240 {
namespace {

using Bytes = std::vector<uint8_t>;

// Random 8-bit intensities that `bits` can represent exactly (sub-byte levels v*255/(2^b-1)).
Bytes random_cells(size_t n, int bits, std::mt19937& rng) {
  Bytes c(n);
  const int top = bits >= 8 ? 255 : (1 << bits) - 1;
  for (auto& v : c)
    v = static_cast<uint8_t>(std::uniform_int_distribution<int>(0, top)(rng) * 255 / top);
  return c;
}

Record make_video(uint32_t idx, int bits, size_t n, CellDurUnit unit, bool compressed,
                  std::mt19937& rng) {
  Record r;
  r.sac = 42;
  r.sic = 17;
  r.type = MessageType::Video;
  r.msg_index = idx;
  r.header = VideoHeader{static_cast<uint16_t>(idx * 37), static_cast<uint16_t>(idx * 37 + 25),
                         idx % 7, unit == CellDurUnit::Nano ? 40u : 130666656u, unit};
  r.res_bits = static_cast<uint8_t>(bits);
  r.compressed = compressed;
  r.cells = random_cells(n, bits, rng);
  r.tod = (idx * 3) & 0xFFFFFF;
  return r;
}

void expect_same(const Record& a, const Record& b) {
  EXPECT_EQ(a.sac, b.sac);
  EXPECT_EQ(a.sic, b.sic);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.msg_index, b.msg_index);
  EXPECT_EQ(a.summary, b.summary);
  ASSERT_EQ(a.header.has_value(), b.header.has_value());
  if (a.header) {
    EXPECT_EQ(a.header->start_az, b.header->start_az);
    EXPECT_EQ(a.header->end_az, b.header->end_az);
    EXPECT_EQ(a.header->start_rg, b.header->start_rg);
    EXPECT_EQ(a.header->cell_dur, b.header->cell_dur);
    EXPECT_EQ(a.header->unit, b.header->unit);
    EXPECT_EQ(a.compressed, b.compressed);
    EXPECT_EQ(a.res_bits, b.res_bits);
  }
  EXPECT_EQ(a.cells, b.cells);
  EXPECT_EQ(a.tod, b.tod);
}

TEST(Cat240RoundTrip, EveryResolutionHeaderCompressionAndVideoItem) {
  std::mt19937 rng(1234);
  const VideoBlockItem items[] = {VideoBlockItem::Auto, VideoBlockItem::Low050,
                                  VideoBlockItem::Medium051, VideoBlockItem::High052};
  int cases = 0;
  for (int bits : {1, 2, 4, 8, 16, 32}) {
    for (CellDurUnit unit : {CellDurUnit::Nano, CellDurUnit::Femto}) {
      for (bool z : {false, true}) {
        for (VideoBlockItem item : items) {
          // 050 holds at most 1020 octets: keep its cases small.
          const size_t n = item == VideoBlockItem::Low050 ? 200 / (bits > 8 ? bits / 8 : 1) : 1001;
          Record r = make_video(cases, bits, n, unit, z, rng);
          EncodeOptions o;
          o.block_item = item;
          const Bytes b = encode_block(r, o);
          Decoder d(DecoderOptions{.keep_raw_video = true});
          std::vector<Record> out;
          d.decode(b, 0, out);
          ASSERT_EQ(out.size(), 1u) << "bits " << bits << " z " << z << " item " << int(item)
                                    << " errors " << d.stats().error_count();
          expect_same(r, out[0]);
          EXPECT_EQ(out[0].nb_cells, n);
          EXPECT_EQ(out[0].raw_video.size(), octets_for_cells(n, bits));
          if (!z) {
            EXPECT_EQ(out[0].nb_vb, octets_for_cells(n, bits));
          }
          ++cases;
        }
      }
    }
  }
  EXPECT_EQ(cases, 96);
}

TEST(Cat240RoundTrip, OptionalItemsReAndSpAndSummaries) {
  std::mt19937 rng(7);
  Record v = make_video(5, 8, 64, CellDurUnit::Femto, false, rng);
  Record s;
  s.type = MessageType::Summary;
  s.sac = 42;
  s.sic = 17;
  s.summary = std::string("radar ok \x01\xFE\xFF", 12);  // non-ASCII bytes survive
  s.tod = 100;
  EncodeOptions o;
  o.re = {1, 2, 3};
  o.sp = Bytes(254, 0x5A);
  const Record both[] = {v, s};
  const Bytes b = encode_block(both, o);
  Decoder d;
  std::vector<Record> out;
  d.decode(b, 0, out);
  ASSERT_EQ(out.size(), 2u) << d.stats().error_count();
  expect_same(v, out[0]);
  expect_same(s, out[1]);

  // Without Time of Day.
  EncodeOptions no_tod;
  no_tod.item_140 = false;
  out.clear();
  d.decode(encode_block(v, no_tod), 0, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_FALSE(out[0].tod);
  // A record without tod encodes none even with item_140 on.
  Record v2 = v;
  v2.tod.reset();
  out.clear();
  d.decode(encode_block(v2), 0, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_FALSE(out[0].tod);
  // Without I240/010 the record is invalid by the spec: the decoder says so.
  EncodeOptions no_010;
  no_010.item_010 = false;
  Decoder d2(DecoderOptions{.log_errors = false});
  out.clear();
  d2.decode(encode_block(v, no_010), 0, out);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(d2.stats().errors.at(reason::kMissingItem), 1u);
}

TEST(Cat240RoundTrip, OverridesAndRawVideoWins) {
  Record r;
  r.header = VideoHeader{};
  r.msg_index = 9;
  r.cells = {0, 17, 34, 255};
  r.raw_video = {0x12, 0x34};  // wins over cells: 4 cells of 4 bits
  r.nb_cells = 4;
  EncodeOptions o;
  o.res_bits = 4;
  o.unit = CellDurUnit::Femto;
  o.compress = true;
  Decoder d(DecoderOptions{.keep_raw_video = true});
  std::vector<Record> out;
  d.decode(encode_block(r, o), 0, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].raw_video, (Bytes{0x12, 0x34}));
  EXPECT_EQ(out[0].cells, (Bytes{17, 34, 51, 68}));
  EXPECT_EQ(out[0].header->unit, CellDurUnit::Femto);
  EXPECT_TRUE(out[0].compressed);
}

TEST(Cat240RoundTrip, IntermediateIntensitiesRoundToTheNearestLevel) {
  Record r;
  r.header = VideoHeader{};
  r.cells = {0, 60, 100, 128, 200, 255};
  for (int bits : {1, 2, 4}) {
    EncodeOptions o;
    o.res_bits = bits;
    Decoder d;
    std::vector<Record> out;
    d.decode(encode_block(r, o), 0, out);
    ASSERT_EQ(out.size(), 1u);
    const int top = (1 << bits) - 1;
    for (size_t i = 0; i < r.cells.size(); ++i) {
      const int want = (r.cells[i] * top + 127) / 255 * 255 / top;
      EXPECT_EQ(out[0].cells[i], want) << "bits " << bits << " v " << int(r.cells[i]);
    }
  }
}

TEST(Cat240RoundTrip, MultiBlockDatagramsAndAppendBlock) {
  std::mt19937 rng(99);
  Bytes datagram;
  std::vector<Record> sent;
  for (int blk = 0; blk < 5; ++blk) {
    std::vector<Record> recs;
    for (int i = 0; i <= blk; ++i)
      recs.push_back(make_video(blk * 10 + i, 8, 300, CellDurUnit::Nano, false, rng));
    append_block(recs, {}, datagram);
    sent.insert(sent.end(), recs.begin(), recs.end());
  }
  Decoder d;
  std::vector<Record> out;
  d.decode(datagram, 0, out);
  ASSERT_EQ(out.size(), sent.size());
  for (size_t i = 0; i < out.size(); ++i) expect_same(sent[i], out[i]);
  EXPECT_EQ(d.stats().blocks, 5u);
}

TEST(Cat240RoundTrip, LargeVideoThroughI240_052) {
  std::mt19937 rng(5);
  Record r = make_video(1, 16, 30000, CellDurUnit::Femto, false, rng);  // 60000 octets
  const Bytes b = encode_block(r);
  EXPECT_GT(b.size(), 60000u);
  Decoder d;
  std::vector<Record> out;
  d.decode(b, 0, out);
  ASSERT_EQ(out.size(), 1u);
  expect_same(r, out[0]);
}

TEST(Cat240RoundTrip, EncoderRefusesWhatCannotBeSent) {
  Record r;
  r.header = VideoHeader{};
  r.cells.assign(2000, 1);
  EncodeOptions low;
  low.block_item = VideoBlockItem::Low050;  // 2000 octets > 255 x 4
  EXPECT_THROW(encode_block(r, low), Error);
  EncodeOptions bad_bits;
  bad_bits.res_bits = 3;
  EXPECT_THROW(encode_block(r, bad_bits), Error);
  Record big = r;
  big.cells.assign(70000, 1);  // NB_VB over 65535
  EXPECT_THROW(encode_block(big), Error);
  Record s;
  s.type = MessageType::Summary;
  s.summary.assign(256, 'x');
  EXPECT_THROW(encode_block(s), Error);
  EncodeOptions re;
  re.re.assign(255, 0);
  Bytes out = {1, 2, 3};
  EXPECT_THROW(append_block(std::span<const Record>(&r, 1), re, out), Error);
  EXPECT_EQ(out.size(), 3u);  // a failed append leaves the buffer as it was
}

}  // namespace
}  // namespace sweepline::cat240
