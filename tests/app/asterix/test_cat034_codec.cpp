// CAT034: hand-computed byte vectors, round trips, the encoder's refusals and the decoder's
// validation paths.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "app/asterix/cat034_decoder.hpp"
#include "app/asterix/cat034_encoder.hpp"
#include "app/common/check.hpp"
#include "tests/app/asterix/asterix_scene.hpp"

namespace sweepline::cat034 {
namespace {

using asterix::test::block;
using asterix::test::Bytes;
using asterix::test::cat;

// North marker: FSPEC (010 000 030), SAC SIC, type 1, ToD 320 (2.5 s).
const Bytes kNorthRecord = {0xE0, 0x01, 0x02, 0x01, 0x00, 0x01, 0x40};
// Sector crossing with every item we write: FSPEC (010 000 030 020 041 050 060 | 120),
// sector 32 (45 deg), rotation 320 (2.5 s), 050 COM + PSR (CH-A/B 1), 060 COM + PSR (STC 2),
// 120 height 30 m, lat round(51.5 * 2^23 / 180), lon round(-0.125 * 2^23 / 180).
const Bytes kSectorRecord = {0xFF, 0x10, 0x01, 0x02, 0x02, 0x00, 0x01, 0x40, 0x20,
                             0x01, 0x40, 0x90, 0x00, 0x20, 0x90, 0x00, 0x08, 0x00,
                             0x1E, 0x24, 0x9F, 0x4A, 0xFF, 0xE9, 0x3F};

ServiceMessage north() {
  ServiceMessage m;
  m.sac = 1;
  m.sic = 2;
  m.type = MessageType::NorthMarker;
  m.tod_s = 2.5;
  return m;
}

ServiceMessage sector() {
  ServiceMessage m = north();
  m.type = MessageType::SectorCrossing;
  m.sector_deg = 45.0;
  m.rotation_period_s = 2.5;
  m.status = SystemStatus{};
  m.mode = ProcessingMode{};
  m.mode->psr_stc = 2;
  m.position = Position{51.5, -0.125, 30};
  return m;
}

struct Outcome {
  std::vector<ServiceMessage> msgs;
  asterix::DecodeStats stats;
};
Outcome run(const Bytes& b) {
  Decoder d(DecoderOptions{.log_errors = false});
  Outcome o;
  d.decode(b, 0, o.msgs);
  o.stats = d.stats();
  return o;
}

TEST(Cat034Vectors, BytesAreTheHandComputedOnes) {
  EXPECT_EQ(encode_block(north()), block(34, kNorthRecord));
  EXPECT_EQ(encode_block(sector()), block(34, kSectorRecord));
}

TEST(Cat034Vectors, DecodesTheHandComputedBytes) {
  const Outcome o = run(block(34, cat({kNorthRecord, kSectorRecord})));
  ASSERT_EQ(o.msgs.size(), 2u);
  EXPECT_EQ(o.stats.error_count(), 0u);
  EXPECT_EQ(o.msgs[0].type, MessageType::NorthMarker);
  EXPECT_DOUBLE_EQ(o.msgs[0].tod_s, 2.5);
  EXPECT_FALSE(o.msgs[0].sector_deg);
  const ServiceMessage& s = o.msgs[1];
  EXPECT_EQ(s.type, MessageType::SectorCrossing);
  EXPECT_DOUBLE_EQ(*s.sector_deg, 45.0);
  EXPECT_DOUBLE_EQ(*s.rotation_period_s, 2.5);
  EXPECT_EQ(*s.status, SystemStatus{});
  EXPECT_EQ(s.mode->psr_stc, 2);
  EXPECT_NEAR(s.position->lat_deg, 51.5, kLatLonLsbDeg);
  EXPECT_NEAR(s.position->lon_deg, -0.125, kLatLonLsbDeg);
  EXPECT_EQ(s.position->height_m, 30);
}

TEST(Cat034RoundTrip, ServiceMessagesOfAScanAndEveryFlag) {
  auto msgs = asterix::test::service_messages(43200.3, 32);
  ServiceMessage flags = sector();
  flags.status = SystemStatus{true, true, true, true, true, true, true, true, true, 3, true, true};
  flags.mode = ProcessingMode{7, 7, true, true, 7, 3};
  flags.position = Position{-90, 179.99999999, -32768};  // 180 E is written as 180 W
  msgs.push_back(flags);
  ServiceMessage no_psr = north();
  no_psr.status = SystemStatus{};
  no_psr.status->has_psr = false;
  no_psr.status->psr_ch_ab = 0;
  no_psr.mode = ProcessingMode{};
  no_psr.mode->has_psr = false;
  msgs.push_back(no_psr);
  const Bytes wire = encode_block(msgs);
  const Outcome o = run(wire);
  ASSERT_EQ(o.msgs.size(), msgs.size());
  EXPECT_EQ(o.stats.error_count(), 0u);
  for (size_t i = 0; i < msgs.size(); ++i) {
    SCOPED_TRACE(i);
    const ServiceMessage &a = msgs[i], &b = o.msgs[i];
    EXPECT_EQ(a.type, b.type);
    EXPECT_NEAR(a.tod_s, b.tod_s, kTodLsbS / 2 + 1e-9);
    ASSERT_EQ(a.sector_deg.has_value(), b.sector_deg.has_value());
    if (a.sector_deg) {
      EXPECT_NEAR(std::remainder(*a.sector_deg - *b.sector_deg, 360.0), 0, kSectorLsbDeg / 2);
    }
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.mode, b.mode);
    ASSERT_EQ(a.position.has_value(), b.position.has_value());
    if (a.position) {
      EXPECT_NEAR(a.position->lat_deg, b.position->lat_deg, kLatLonLsbDeg / 2 + 1e-12);
      EXPECT_NEAR(std::remainder(a.position->lon_deg - b.position->lon_deg, 360.0), 0,
                  kLatLonLsbDeg / 2 + 1e-12);
      EXPECT_EQ(a.position->height_m, b.position->height_m);
    }
  }
  EXPECT_EQ(o.msgs[o.msgs.size() - 2].position->lon_deg, -180.0);
  EXPECT_EQ(encode_block(o.msgs), wire);
}

TEST(Cat034Encoder, Refusals) {
  EXPECT_EQ(encode_refusal(sector()), nullptr);
  ServiceMessage m = sector();
  m.sector_deg.reset();
  EXPECT_NE(encode_refusal(m), nullptr);  // a sector crossing needs its sector
  m = sector();
  m.position->lat_deg = 90.1;
  EXPECT_NE(encode_refusal(m), nullptr);
  m = sector();
  m.position->height_m = 40000;
  EXPECT_NE(encode_refusal(m), nullptr);
  m = sector();
  m.rotation_period_s = -1;
  EXPECT_NE(encode_refusal(m), nullptr);
  m = sector();
  m.mode->red_rdp = 8;
  EXPECT_NE(encode_refusal(m), nullptr);
  m = sector();
  m.type = static_cast<MessageType>(9);
  EXPECT_NE(encode_refusal(m), nullptr);
  Bytes out = {9};
  EXPECT_THROW(append_record(m, out), Error);
  EXPECT_EQ(out, Bytes{9});
}

TEST(Cat034Errors, FramingAndItemErrors) {
  Outcome o = run(block(34, {0xFF, 0xFF}));
  EXPECT_EQ(o.stats.errors.at("bad_fspec"), 1u);
  o = run(block(34, {0x01, 0x01, 0x40}));  // FRN 16
  EXPECT_EQ(o.stats.errors.at("unknown_item"), 1u);
  for (size_t cut = 1; cut < kSectorRecord.size(); ++cut) {
    SCOPED_TRACE(cut);
    o = run(
        block(34, Bytes(kSectorRecord.begin(), kSectorRecord.begin() + static_cast<long>(cut))));
    EXPECT_TRUE(o.msgs.empty());
    EXPECT_EQ(o.stats.error_count(), 1u);
  }
  o = run(block(34, cat({kNorthRecord, {0, 0}})));
  EXPECT_EQ(o.msgs.size(), 1u);
  EXPECT_EQ(o.stats.errors.at("empty_fspec"), 1u);
}

TEST(Cat034Errors, RecordLevelErrorsSkipOnlyThatRecord) {
  Bytes bad_type = kNorthRecord;
  bad_type[3] = 9;
  Bytes no_sector = kNorthRecord;
  no_sector[3] = 2;  // a sector crossing without I034/020
  const Bytes no_tod = {0xC0, 0x01, 0x02, 0x01};
  Bytes bad_lat = kSectorRecord;
  bad_lat[19] = 0x7F;  // latitude over 90 degrees
  const Outcome o = run(block(34, cat({bad_type, kNorthRecord, no_sector, no_tod, bad_lat})));
  EXPECT_EQ(o.msgs.size(), 1u);
  EXPECT_EQ(o.stats.errors.at("bad_message_type"), 1u);
  EXPECT_EQ(o.stats.errors.at("missing_mandatory_item"), 2u);
  EXPECT_EQ(o.stats.errors.at("bad_value"), 1u);
}

TEST(Cat034Errors, CompoundSpareBitsAndExplicitLength) {
  Bytes rec = kSectorRecord;
  rec[11] = 0xD0;  // 050 primary: COM, the spare bit 7, PSR
  Outcome o = run(block(34, rec));
  EXPECT_EQ(o.stats.errors.at("unknown_item"), 1u);
  // 010 000 030 + SP (FRN 14) of length 0.
  o = run(block(34, {0xE1, 0x02, 0x01, 0x02, 0x01, 0x00, 0x01, 0x40, 0x00}));
  EXPECT_EQ(o.stats.errors.at("bad_explicit_len"), 1u);
}

TEST(Cat034Decoder, ItemsWeDoNotKeepAreSkipped) {
  // 010 000 030 | 070 (REP 2) 100 110 090 RE(3) SP(2), then a north marker.
  const Bytes rec = cat({{0xE1, 0xEE},
                         {0x01, 0x02, 0x01, 0x00, 0x01, 0x40},
                         {0x02, 0x11, 0x22, 0x33, 0x44},
                         {1, 2, 3, 4, 5, 6, 7, 8},
                         {0x01},
                         {0x05, 0x06},
                         {0x03, 0xAA, 0xBB},
                         {0x02, 0xCC}});
  const Outcome o = run(block(34, cat({rec, kNorthRecord})));
  EXPECT_EQ(o.stats.error_count(), 0u);
  EXPECT_EQ(o.msgs.size(), 2u);
}

}  // namespace
}  // namespace sweepline::cat034
