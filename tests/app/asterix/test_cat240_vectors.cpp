// Byte-exact CAT240 vectors written by hand from the edition 1.3 item tables (not with the
// encoder): the decoder must read them, and the encoder must reproduce the ones it can express.
#include <gtest/gtest.h>
#include <zlib.h>

#include <vector>

#include "app/asterix/cat240_decoder.hpp"
#include "app/asterix/cat240_encoder.hpp"
#include "tests/app/asterix/cat240_bytes.hpp"

namespace sweepline::cat240 {
namespace {

using namespace test;  // Bytes, cat, block, layout_items

// Video record, nano header, 8-bit cells 10 20 30 40 50 in I240/050 (2 x 4 octets, padding AA),
// Time of Day 3 s.
const Bytes kVideoNano8 = {
    0xEB, 0xC8,                    // FSPEC: 010 000 020 040 048 FX | 049 050 140
    0x07, 0x09,                    // I240/010 SAC 7 SIC 9
    0x02,                          // I240/000 video
    0x00, 0x00, 0x03, 0xE8,        // I240/020 MSG_INDEX 1000
    0x40, 0x00, 0x41, 0x00,        // I240/040 START_AZ 0x4000 (90 deg), END_AZ 0x4100
    0x00, 0x00, 0x00, 0x05,        //          START_RG 5
    0x00, 0x00, 0x00, 0xFA,        //          CELL_DUR 250 ns
    0x00, 0x04,                    // I240/048 C=0, RES 4 (8 bits)
    0x00, 0x05, 0x00, 0x00, 0x05,  // I240/049 NB_VB 5, NB_CELLS 5
    0x02, 0x10, 0x20, 0x30, 0x40, 0x50, 0xAA, 0xAA, 0xAA,  // I240/050 REP 2
    0x00, 0x01, 0x80,                                      // I240/140 384/128 s
};

// Video Summary "hello" from SAC 1 SIC 2.
const Bytes kSummary = {0xD0, 0x01, 0x02, 0x01, 0x05, 'h', 'e', 'l', 'l', 'o'};

// Video record with femto header and the given I240/048 RES, NB_VB, NB_CELLS and video octets
// in I240/051 (one 64-octet unit, zero padded). FSPEC E7 A0 as sent by a naval radar.
Bytes femto_record(uint8_t c_and_res0, uint8_t res, uint16_t nb_vb, uint32_t nb_cells,
                   const Bytes& octets) {
  Bytes r = {0xE7, 0xA0, 0x03, 0x04, 0x02, 0x00, 0x00, 0x00,
             0x01,  // 010, 000, 020 = 1
             0xFF, 0xF0, 0x00,
             0x10,  // START_AZ > END_AZ (north)
             0x00, 0x00, 0x00,
             0x0A,                     // START_RG 10
             0x07, 0xC9, 0xD0, 0xA0};  // CELL_DUR 130,666,656 fs
  Bytes unit(64, 0);
  std::copy(octets.begin(), octets.end(), unit.begin());
  return cat({r, layout_items(c_and_res0, res, nb_vb, nb_cells), {0x01}, unit});  // REP 1
}

std::vector<Record> decode(const Bytes& b, Decoder& d) {
  std::vector<Record> out;
  d.decode(b, 1.5, out);
  return out;
}

TEST(Cat240Vectors, VideoNano8Bit) {
  Decoder d;
  const auto recs = decode(block(kVideoNano8), d);
  ASSERT_EQ(recs.size(), 1u);
  const Record& r = recs[0];
  EXPECT_EQ(r.sac, 7);
  EXPECT_EQ(r.sic, 9);
  EXPECT_EQ(r.type, MessageType::Video);
  EXPECT_EQ(r.msg_index, 1000u);
  ASSERT_TRUE(r.header);
  EXPECT_EQ(r.header->start_az, 0x4000);
  EXPECT_EQ(r.header->end_az, 0x4100);
  EXPECT_EQ(r.header->start_rg, 5u);
  EXPECT_EQ(r.header->cell_dur, 250u);
  EXPECT_EQ(r.header->unit, CellDurUnit::Nano);
  EXPECT_FALSE(r.compressed);
  EXPECT_EQ(r.res_bits, 8);
  EXPECT_EQ(r.nb_vb, 5);
  EXPECT_EQ(r.nb_cells, 5u);
  EXPECT_EQ(r.cells, (Bytes{0x10, 0x20, 0x30, 0x40, 0x50}));
  EXPECT_EQ(r.tod, 384u);
  EXPECT_DOUBLE_EQ(r.capture_time, 1.5);
  EXPECT_EQ(d.stats().blocks, 1u);
  EXPECT_EQ(d.stats().video, 1u);
  EXPECT_TRUE(d.stats().errors.empty());
}

TEST(Cat240Vectors, EncoderReproducesTheHandWrittenBytes) {
  Record r;
  r.sac = 7;
  r.sic = 9;
  r.msg_index = 1000;
  r.header = VideoHeader{0x4000, 0x4100, 5, 250, CellDurUnit::Nano};
  r.res_bits = 8;
  r.cells = {0x10, 0x20, 0x30, 0x40, 0x50};
  r.tod = 384;
  EncodeOptions o;
  o.pad_byte = 0xAA;
  EXPECT_EQ(encode_block(r, o), block(kVideoNano8));

  Record s;
  s.type = MessageType::Summary;
  s.sac = 1;
  s.sic = 2;
  s.summary = "hello";
  EXPECT_EQ(encode_block(s), block(kSummary));
}

TEST(Cat240Vectors, Summary) {
  Decoder d;
  const auto recs = decode(block(kSummary), d);
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].type, MessageType::Summary);
  EXPECT_EQ(recs[0].summary, "hello");
  EXPECT_EQ(recs[0].sac, 1);
  EXPECT_EQ(recs[0].sic, 2);
  EXPECT_FALSE(recs[0].header);
  EXPECT_TRUE(recs[0].cells.empty());
  EXPECT_EQ(d.stats().summaries, 1u);
}

TEST(Cat240Vectors, FemtoAndEverySubByteResolution) {
  struct Case {
    uint8_t res;
    uint32_t nb_cells;
    Bytes octets;
    Bytes cells;
  };
  const std::vector<Case> cases = {
      {1, 5, {0xB0}, {255, 0, 255, 255, 0}},           // 1011 0...
      {2, 4, {0xE4}, {255, 170, 85, 0}},               // 11 10 01 00
      {3, 3, {0xF1, 0x20}, {255, 17, 34}},             // 1111 0001 | 0010
      {4, 2, {0x00, 0xFF}, {0, 255}},                  // 8 bits
      {5, 2, {0x12, 0x34, 0xAB, 0xCD}, {0x12, 0xAB}},  // 16-bit big-endian: top octet
      {6, 2, {0xDE, 0xAD, 0xBE, 0xEF, 0x01, 0x02, 0x03, 0x04}, {0xDE, 0x01}},  // 32-bit
  };
  for (const auto& c : cases) {
    Decoder d;
    const auto recs = decode(block(femto_record(0x00, c.res, static_cast<uint16_t>(c.octets.size()),
                                                c.nb_cells, c.octets)),
                             d);
    ASSERT_EQ(recs.size(), 1u) << "RES " << int(c.res);
    EXPECT_EQ(recs[0].res_bits, res_bits_from_code(c.res));
    EXPECT_EQ(recs[0].cells, c.cells) << "RES " << int(c.res);
    ASSERT_TRUE(recs[0].header);
    EXPECT_EQ(recs[0].header->unit, CellDurUnit::Femto);
    EXPECT_EQ(recs[0].header->cell_dur, 130666656u);
    EXPECT_EQ(recs[0].header->start_az, 0xFFF0);
    EXPECT_EQ(recs[0].header->end_az, 0x0010);
  }
}

TEST(Cat240Vectors, ZlibCompressedVideo) {
  const Bytes plain = {0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0};  // 16 cells of 4 bits
  Bytes z(compressBound(plain.size()));
  uLongf zlen = z.size();
  ASSERT_EQ(compress(z.data(), &zlen, plain.data(), plain.size()), Z_OK);
  z.resize(zlen);
  Decoder d(DecoderOptions{.keep_raw_video = true});
  const auto recs = decode(block(femto_record(0x80, 3, static_cast<uint16_t>(z.size()), 16, z)), d);
  ASSERT_EQ(recs.size(), 1u) << d.stats().error_count();
  EXPECT_TRUE(recs[0].compressed);
  EXPECT_EQ(recs[0].nb_vb, z.size());
  EXPECT_EQ(recs[0].raw_video, plain);
  Bytes want;
  for (uint8_t o : plain) {
    want.push_back((o >> 4) * 17);
    want.push_back((o & 15) * 17);
  }
  EXPECT_EQ(recs[0].cells, want);
}

TEST(Cat240Vectors, ReAndSpAreSkippedByTheirLength) {
  Bytes r = kVideoNano8;
  r[1] |= 0x06;                                 // RE and SP present
  r.insert(r.end(), {0x04, 0xDE, 0xAD, 0x01});  // RE: length 4 (itself + 3)
  r.insert(r.end(), {0x02, 0x77});              // SP: length 2
  Decoder d;
  const auto recs = decode(block(cat({r, kSummary})), d);
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].cells.size(), 5u);
  EXPECT_EQ(recs[0].tod, 384u);
  EXPECT_EQ(recs[1].summary, "hello");
  EXPECT_TRUE(d.stats().errors.empty());
}

TEST(Cat240Vectors, MultiRecordBlocksAndMultiBlockDatagrams) {
  const Bytes one = block(cat({kVideoNano8, kSummary, kVideoNano8}));
  const Bytes two = block(kSummary);
  Decoder d;
  const auto recs = decode(cat({one, two}), d);
  ASSERT_EQ(recs.size(), 4u);
  EXPECT_EQ(recs[0].type, MessageType::Video);
  EXPECT_EQ(recs[1].type, MessageType::Summary);
  EXPECT_EQ(recs[2].type, MessageType::Video);
  EXPECT_EQ(recs[3].type, MessageType::Summary);
  EXPECT_EQ(d.stats().blocks, 2u);
  EXPECT_EQ(d.stats().records, 4u);
}

TEST(Cat240Vectors, VisitorSeesWireBytesWithoutCopyFor8Bit) {
  const Bytes b = block(kVideoNano8);
  Decoder d;
  int calls = 0;
  d.decode_each(b, 0,
                [&](const Record& r, std::span<const uint8_t> cells, std::span<const uint8_t> raw) {
                  ++calls;
                  EXPECT_TRUE(r.cells.empty());
                  ASSERT_EQ(cells.size(), 5u);
                  EXPECT_GE(cells.data(), b.data());  // points into the input buffer
                  EXPECT_LT(cells.data(), b.data() + b.size());
                  EXPECT_EQ(raw.size(), 5u);
                });
  EXPECT_EQ(calls, 1);
}

TEST(Cat240Vectors, LooksLikeCat240) {
  EXPECT_TRUE(looks_like_cat240(block(kSummary)));
  Bytes other = block(kSummary);
  other[0] = 48;
  EXPECT_FALSE(looks_like_cat240(other));
  EXPECT_FALSE(looks_like_cat240(Bytes{0xF0, 0x00}));
  EXPECT_FALSE(looks_like_cat240(Bytes{0xF0, 0x00, 0x09, 0xD0}));  // LEN beyond the bytes
  // Another category first, then CAT240 in the same datagram.
  EXPECT_TRUE(looks_like_cat240(cat({{48, 0x00, 0x05, 0x80, 0x01}, block(kSummary)})));
  EXPECT_FALSE(looks_like_cat240(cat({{48, 0x00, 0x05, 0x80, 0x01}, {48, 0x00, 0x04, 0x80}})));
  EXPECT_FALSE(looks_like_cat240(Bytes{'h', 'e', 'l', 'l', 'o'}));
}

}  // namespace
}  // namespace sweepline::cat240
