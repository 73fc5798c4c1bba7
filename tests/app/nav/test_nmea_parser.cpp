// The NMEA parser: published examples, writer -> parser round trips, every refusal reason, and
// random bytes that must neither crash nor go uncounted.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "app/nav/nmea_parser.hpp"
#include "app/nav/nmea_writer.hpp"

namespace sweepline::nav {
namespace {

NmeaSentence parsed(std::string_view line, const NmeaParserConfig& config = {}) {
  const NmeaParseResult r = parse_nmea(line, config);
  EXPECT_TRUE(r.sentence.has_value())
      << line << " refused: " << name_of(kNmeaRejectNames, r.reason);
  return r.sentence.value_or(NmeaSentence{});
}

NmeaReject refusal(std::string_view line, const NmeaParserConfig& config = {}) {
  const NmeaParseResult r = parse_nmea(line, config);
  EXPECT_FALSE(r.sentence.has_value()) << line << " was accepted";
  return r.reason;
}

// body -> "$body*HH" (valid checksum), to build refusals other than the checksum's.
std::string with_sum(std::string_view body) {
  std::string s = nmea_sentence(body);
  return s.substr(0, s.size() - 2);
}

TEST(NmeaParser, PublishedExamples) {
  // The classic examples of the NMEA 0183 sentence descriptions, checksums as published.
  NmeaSentence rmc =
      parsed("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n");
  EXPECT_EQ(rmc.type, NmeaType::Rmc);
  EXPECT_STREQ(rmc.talker.data(), "GP");
  EXPECT_TRUE(rmc.valid);
  EXPECT_DOUBLE_EQ(*rmc.utc_s_of_day, 12 * 3600 + 35 * 60 + 19);
  EXPECT_NEAR(*rmc.lat_deg, 48 + 7.038 / 60, 1e-12);
  EXPECT_NEAR(*rmc.lon_deg, 11 + 31.0 / 60, 1e-12);
  EXPECT_DOUBLE_EQ(*rmc.sog_kn, 22.4);
  EXPECT_DOUBLE_EQ(*rmc.cog_deg, 84.4);
  EXPECT_EQ(rmc.date->year, 1994);
  EXPECT_EQ(rmc.date->month, 3);
  EXPECT_EQ(rmc.date->day, 23);

  NmeaSentence gga = parsed("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47");
  EXPECT_EQ(gga.type, NmeaType::Gga);
  EXPECT_TRUE(gga.valid);
  EXPECT_EQ(gga.fix_quality, 1);
  EXPECT_EQ(gga.satellites, 8);
  EXPECT_DOUBLE_EQ(*gga.hdop, 0.9);
  EXPECT_DOUBLE_EQ(*gga.altitude_m, 545.4);

  NmeaSentence vtg = parsed("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48");
  EXPECT_DOUBLE_EQ(*vtg.cog_deg, 54.7);
  EXPECT_DOUBLE_EQ(*vtg.sog_kn, 5.5);

  NmeaSentence rmc_w = parsed("$GPRMC,225446,A,4916.45,N,12311.12,W,000.5,054.7,191194,020.3,E*68");
  EXPECT_NEAR(*rmc_w.lon_deg, -(123 + 11.12 / 60), 1e-12);
  EXPECT_EQ(rmc_w.date->year, 1994);

  NmeaSentence hdt = parsed("$HEHDT,274.07,T*19");
  EXPECT_EQ(hdt.type, NmeaType::Hdt);
  EXPECT_DOUBLE_EQ(*hdt.heading_deg, 274.07);
}

TEST(NmeaParser, NewerLayoutsAndInvalidFlags) {
  // NMEA 4.1 RMC (mode and navigational status), lower-case checksum digits.
  std::string s = with_sum("GNRMC,001031.00,A,4404.13993,N,12118.86023,W,0.146,,100117,,,A,V");
  NmeaSentence r = parsed(s);
  EXPECT_FALSE(r.valid);  // navigational status V
  EXPECT_FALSE(r.cog_deg.has_value());
  s = with_sum("GNRMC,001031.00,A,4404.13993,N,12118.86023,W,0.146,,100117,,,A,S");
  for (char& c : s) c = char(std::tolower(c == '*' ? c : c));
  EXPECT_EQ(refusal(s), NmeaReject::UnknownSentence);  // lower-case address
  s = with_sum("GNRMC,001031.00,A,4404.13993,N,12118.86023,W,0.146,,100117,,,A,S");
  const std::string lower_sum = s.substr(0, s.size() - 2) + char(std::tolower(s[s.size() - 2])) +
                                char(std::tolower(s[s.size() - 1]));
  EXPECT_TRUE(parsed(lower_sum).valid);

  EXPECT_FALSE(parsed(with_sum("GPRMC,123519,V,,,,,,,230394,,,N")).valid);
  EXPECT_FALSE(parsed(with_sum("GPGGA,123519,,,,,0,00,,,M,,M,,")).valid);
  EXPECT_FALSE(parsed(with_sum("GPVTG,,T,,M,,N,,K,N")).valid);
  NmeaSentence ths = parsed(with_sum("HETHS,123.4,A"));
  EXPECT_TRUE(ths.valid);
  EXPECT_EQ(ths.mode, 'A');
  EXPECT_DOUBLE_EQ(*ths.heading_deg, 123.4);
  EXPECT_FALSE(parsed(with_sum("HETHS,,V")).valid);
  EXPECT_FALSE(parsed(with_sum("HETHS,123.4,V")).valid);
  // VTG with only km/h.
  EXPECT_NEAR(*parsed(with_sum("IIVTG,10.0,T,,M,,N,18.52,K,A")).sog_kn, 10.0, 1e-12);
  // 360 is read as 0.
  EXPECT_DOUBLE_EQ(*parsed(with_sum("HEHDT,360.0,T")).heading_deg, 0.0);
}

TEST(NmeaParser, ChecksumPolicyIsAParameter) {
  const std::string bare = "$HEHDT,274.07,T";
  EXPECT_EQ(refusal(bare), NmeaReject::NoChecksum);
  NmeaParserConfig lenient;
  lenient.require_checksum = false;
  EXPECT_DOUBLE_EQ(*parsed(bare, lenient).heading_deg, 274.07);
  // A checksum that is present is checked under either policy.
  EXPECT_EQ(refusal("$HEHDT,274.07,T*18", lenient), NmeaReject::BadChecksum);
}

struct RefusalCase {
  const char* line;
  NmeaReject reason;
  bool raw = false;  // the line as is (no checksum added)
};

TEST(NmeaParser, EveryRefusalReason) {
  const std::string long_line = with_sum("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M," +
                                         std::string(30, '0') + "1.0,M,,");
  const std::vector<RefusalCase> cases = {
      {long_line.c_str(), NmeaReject::TooLong, true},
      {"$HEHDT,27\x01.07,T*19", NmeaReject::BadCharacter, true},
      {"$HEHDT,27\xc3\xa9.07,T", NmeaReject::BadCharacter, true},
      {"HEHDT,274.07,T*19", NmeaReject::NoStart, true},
      {"garbage", NmeaReject::NoStart, true},
      {"$HEHDT,274.07,T", NmeaReject::NoChecksum, true},
      {"$HEHDT,274.07,T*18", NmeaReject::BadChecksum, true},
      {"$HEHDT,274.07,T*1", NmeaReject::BadChecksum, true},
      {"$HEHDT,274.07,T*1G", NmeaReject::BadChecksum, true},
      {"$HEHDT,274.07,T*190", NmeaReject::BadChecksum, true},
      {"GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1", NmeaReject::UnknownSentence},
      {"PGRME,15.0,M,45.0,M,25.0,M", NmeaReject::UnknownSentence},
      {"!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26", NmeaReject::UnknownSentence, true},
      {"GPRMCX,123519,A", NmeaReject::UnknownSentence},
      {"GPRMC", NmeaReject::WrongFieldCount},
      {"GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394", NmeaReject::WrongFieldCount},
      {"HEHDT,274.07,T,", NmeaReject::WrongFieldCount},
      {"GPGGA,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", NmeaReject::WrongFieldCount},
      {"GPVTG,054.7,034.4,005.5,010.2", NmeaReject::WrongFieldCount},  // NMEA 1.5 layout
      {"GPRMC,123519,A,,,,,022.4,084.4,230394,,", NmeaReject::MissingField},
      {"GPRMC,123519,A,4807.038,,01131.000,E,022.4,084.4,230394,,", NmeaReject::MissingField},
      {"HEHDT,,T", NmeaReject::MissingField},
      {"HETHS,,A", NmeaReject::MissingField},
      {"GPGGA,123519,4807.038,N,01131.000,E,,08,0.9,545.4,M,46.9,M,,", NmeaReject::MissingField},
      {"HEHDT,2x4.07,T", NmeaReject::NotNumeric},
      {"HEHDT,nan,T", NmeaReject::NotNumeric},
      {"HEHDT,1e2,T", NmeaReject::NotNumeric},
      {"HEHDT,.,T", NmeaReject::NotNumeric},
      {"GPRMC,123519,A,-4807.038,N,01131.000,E,022.4,084.4,230394,,", NmeaReject::NotNumeric},
      {"GPRMC,12:35:19,A,4807.038,N,01131.000,E,022.4,084.4,230394,,", NmeaReject::NotNumeric},
      {"GPGGA,123519,4807.038,N,01131.000,E,1.5,08,0.9,545.4,M,46.9,M,,", NmeaReject::NotNumeric},
      {"HEHDT,360.5,T", NmeaReject::OutOfRange},
      {"HEHDT,-1.0,T", NmeaReject::OutOfRange},
      {"GPRMC,123519,A,9100.000,N,01131.000,E,022.4,084.4,230394,,", NmeaReject::OutOfRange},
      {"GPRMC,123519,A,4860.000,N,01131.000,E,022.4,084.4,230394,,", NmeaReject::OutOfRange},
      {"GPRMC,123519,A,4807.038,N,18100.000,E,022.4,084.4,230394,,", NmeaReject::OutOfRange},
      {"GPRMC,243519,A,4807.038,N,01131.000,E,022.4,084.4,230394,,", NmeaReject::OutOfRange},
      {"GPRMC,1235,A,4807.038,N,01131.000,E,022.4,084.4,230394,,", NmeaReject::OutOfRange},
      {"GPRMC,123519,A,4807.038,N,01131.000,E,-22.4,084.4,230394,,", NmeaReject::OutOfRange},
      {"GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,231394,,", NmeaReject::OutOfRange},
      {"GPRMC,123519,X,4807.038,N,01131.000,E,022.4,084.4,230394,,", NmeaReject::BadFlag},
      {"GPRMC,123519,A,4807.038,E,01131.000,E,022.4,084.4,230394,,", NmeaReject::BadFlag},
      {"GPRMC,123519,A,4807.038,N,01131.000,EE,022.4,084.4,230394,,", NmeaReject::BadFlag},
      {"HEHDT,274.07,M", NmeaReject::BadFlag},
      {"HETHS,274.07,X", NmeaReject::BadFlag},
      {"GPVTG,054.7,T,034.4,M,005.5,K,010.2,N", NmeaReject::BadFlag},
  };
  NmeaParser parser;
  std::array<uint64_t, kNmeaRejectCount> expected{};
  for (const RefusalCase& c : cases) {
    const std::string line = c.raw ? std::string(c.line) : with_sum(c.line);
    EXPECT_EQ(name_of(kNmeaRejectNames, refusal(line)), name_of(kNmeaRejectNames, c.reason))
        << line;
    EXPECT_FALSE(parser.parse(line).has_value());
    ++expected[std::size_t(c.reason)];
  }
  EXPECT_EQ(parser.counters().refused, expected);
  EXPECT_EQ(parser.counters().accepted_total(), 0u);
  EXPECT_EQ(parser.counters().lines, cases.size());
  // Every reason is exercised.
  for (std::size_t i = 0; i < kNmeaRejectCount; ++i)
    EXPECT_GT(expected[i], 0u) << kNmeaRejectNames[i].name;
}

double angle_diff(double a, double b) {
  return std::fabs(std::remainder(a - b, 360.0));
}

TEST(NmeaParser, WriterRoundTripOverRandomValues) {
  std::mt19937 rng(290);
  std::uniform_real_distribution<double> lat(-90, 90), lon(-180, 180), ang(-720, 720), sog(0, 60),
      tod(0, 86400);
  NmeaParser parser;
  const std::vector<std::string> talkers = {"GP", "GN", "II", "GL"};
  for (int i = 0; i < 5000; ++i) {
    NavFix f;
    f.utc_s_of_day = tod(rng);
    f.year = 2000 + i % 80;
    f.month = 1 + i % 12;
    f.day = 1 + i % 28;
    f.lat_deg = i % 50 == 0 ? (i % 100 == 0 ? -0.0 : 90.0) : lat(rng);
    f.lon_deg = i % 70 == 0 ? 180.0 : lon(rng);
    f.sog_kn = i % 10 == 0 ? 0.0 : sog(rng);
    f.cog_deg = i % 30 == 0 ? 359.9999 : ang(rng);
    f.heading_deg = i % 40 == 0 ? 360.0 : ang(rng);
    f.has_heading = true;
    f.has_fix = i % 17 != 0;
    const std::string& talker = talkers[std::size_t(i) % talkers.size()];
    std::vector<NmeaSentence> got;
    parser.parse_buffer(format_nav_update(f, {talker, "HE"}),
                        [&](const NmeaSentence& s) { got.push_back(s); });
    ASSERT_EQ(got.size(), 4u) << format_nav_update(f);
    for (const NmeaSentence& s : got) {
      if (s.type == NmeaType::Hdt) {
        EXPECT_STREQ(s.talker.data(), "HE");
        EXPECT_LE(angle_diff(*s.heading_deg, f.heading_deg), 0.005 + 1e-9);
        continue;
      }
      EXPECT_EQ(std::string(s.talker.data()), talker);
      EXPECT_EQ(s.valid, f.has_fix);
      if (!f.has_fix) continue;
      if (s.type != NmeaType::Vtg) {
        // 1e-5 minutes of latitude: 1.7e-7 deg.
        EXPECT_NEAR(*s.lat_deg, f.lat_deg, 1e-7);
        EXPECT_LE(angle_diff(*s.lon_deg, f.lon_deg), 1e-7);
        EXPECT_NEAR(*s.utc_s_of_day, std::round(f.utc_s_of_day * 100) / 100, 1e-6);
      }
      if (s.type != NmeaType::Gga) {
        EXPECT_NEAR(*s.sog_kn, f.sog_kn, 0.005 + 1e-9);
        EXPECT_LE(angle_diff(*s.cog_deg, f.cog_deg), 0.005 + 1e-9);
        EXPECT_GE(*s.cog_deg, 0.0);
        EXPECT_LT(*s.cog_deg, 360.0);
      }
      if (s.type == NmeaType::Rmc) {
        EXPECT_EQ(s.date->year, f.year);
        EXPECT_EQ(s.date->month, f.month);
        EXPECT_EQ(s.date->day, f.day);
      }
    }
  }
  EXPECT_EQ(parser.counters().refused_total(), 0u);
  EXPECT_EQ(parser.counters().accepted_of(NmeaType::Rmc), 5000u);
  EXPECT_EQ(parser.counters().accepted_of(NmeaType::Hdt), 5000u);
}

TEST(NmeaParser, BufferFramingAndIec61162_450) {
  NavFix f;
  f.lat_deg = 1;
  f.has_heading = true;
  NmeaParser parser;
  std::string datagram = std::string("UdPbC\0", 6) + "\\s:GP0001,n:12*5A\\" + format_rmc(f) +
                         format_gga(f) + "\n\n\r\n" + format_hdt(f).substr(0, 12) + "\n" +
                         format_vtg(f);
  datagram.pop_back();
  datagram.pop_back();  // the last sentence without its CR LF
  std::vector<NmeaType> types;
  const std::size_t n =
      parser.parse_buffer(datagram, [&](const NmeaSentence& s) { types.push_back(s.type); });
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(types, (std::vector<NmeaType>{NmeaType::Rmc, NmeaType::Gga, NmeaType::Vtg}));
  EXPECT_EQ(parser.counters().lines, 4u);  // blank lines are not counted
  EXPECT_EQ(parser.counters().refused_of(NmeaReject::NoChecksum), 1u);
}

TEST(NmeaParser, RandomBytesNeverCrashAndAreAllCounted) {
  std::mt19937 rng(2929);
  NmeaParser parser;
  NavFix f;
  f.has_heading = true;
  const std::string good = format_nav_update(f);
  std::uniform_int_distribution<int> byte(0, 255), len(0, 200), pick(0, 3);
  uint64_t accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string buf;
    switch (pick(rng)) {
      case 0:  // pure noise
        for (int k = len(rng); k > 0; --k) buf += char(byte(rng));
        break;
      case 1:  // noise shaped like sentences
        buf = "$GPRMC,";
        for (int k = len(rng); k > 0; --k) buf += "0123456789.,NSEWAV*$\r\n"[byte(rng) % 22];
        break;
      case 2: {  // one good sentence's fields mutated, the checksum made right again
        const std::string one = good.substr(1, good.find('*') - 1);
        std::string body = one;
        for (int k = 1 + byte(rng) % 3; k > 0 && !body.empty(); --k) {
          const std::size_t at = std::size_t(byte(rng)) % body.size();
          body[at] = "0123456789.,-+NSEWAVTMKX *"[byte(rng) % 26];
        }
        buf = nmea_sentence(body);
        break;
      }
      default: {  // good sentences with a few bytes flipped, cut or inserted
        buf = good;
        for (int k = byte(rng) % 4; k > 0; --k) {
          const std::size_t at = std::size_t(byte(rng)) % buf.size();
          switch (byte(rng) % 3) {
            case 0:
              buf[at] = char(byte(rng));
              break;
            case 1:
              buf.erase(at, 1 + std::size_t(byte(rng)) % 10);
              break;
            default:
              buf.insert(at, 1, char(byte(rng)));
          }
          if (buf.empty()) break;
        }
      }
    }
    accepted += parser.parse_buffer(buf, [](const NmeaSentence& s) {
      // What is accepted is in range.
      EXPECT_LE(std::fabs(s.lat_deg.value_or(0)), 90.0);
      EXPECT_LE(std::fabs(s.lon_deg.value_or(0)), 180.0);
      EXPECT_TRUE(s.cog_deg.value_or(0) >= 0 && s.cog_deg.value_or(0) < 360);
      EXPECT_TRUE(s.heading_deg.value_or(0) >= 0 && s.heading_deg.value_or(0) < 360);
      EXPECT_GE(s.sog_kn.value_or(0), 0.0);
    });
  }
  const NmeaCounters& c = parser.counters();
  EXPECT_EQ(c.accepted_total(), accepted);
  EXPECT_EQ(c.accepted_total() + c.refused_total(), c.lines);
  EXPECT_GT(c.accepted_total(), 0u);
  EXPECT_GT(c.refused_total(), 10000u);
  for (const auto& e : kNmeaRejectNames)
    std::printf("%-18s %llu\n", e.name, (unsigned long long)c.refused_of(e.value));
}

}  // namespace
}  // namespace sweepline::nav
