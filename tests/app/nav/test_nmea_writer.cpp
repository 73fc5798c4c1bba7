// The NMEA writer: layout, checksums, rounding and wrap at field boundaries.
#include <gtest/gtest.h>

#include <string>

#include "app/common/check.hpp"
#include "app/nav/nmea_writer.hpp"

namespace sweepline::nav {
namespace {

// The sentence up to and including '*' (the checksum is checked separately).
std::string head(const std::string& s) {
  return s.substr(0, s.find('*') + 1);
}

NavFix sample_fix() {
  NavFix f;
  f.utc_s_of_day = 12 * 3600 + 35 * 60 + 19.25;
  f.year = 2024;
  f.month = 3;
  f.day = 23;
  f.lat_deg = 48.1173;
  f.lon_deg = -11.516666667;
  f.sog_kn = 22.4;
  f.cog_deg = 84.4;
  f.heading_deg = 86.2;
  f.has_heading = true;
  f.satellites = 9;
  f.hdop = 0.9;
  f.altitude_m = 545.4;
  return f;
}

TEST(NmeaWriter, ChecksumOfThePublishedExamples) {
  // The checksums printed with the classic examples of the NMEA 0183 sentence descriptions.
  EXPECT_EQ(nmea_checksum("GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"),
            0x6Au);
  EXPECT_EQ(nmea_checksum("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"), 0x47u);
  EXPECT_EQ(nmea_checksum("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K"), 0x48u);
  EXPECT_EQ(nmea_sentence("HEHDT,274.07,T"), "$HEHDT,274.07,T*19\r\n");
}

TEST(NmeaWriter, SentencesHaveTheExpectedFields) {
  const NavFix f = sample_fix();
  const std::string rmc = format_rmc(f);
  EXPECT_EQ(rmc.substr(0, rmc.size() - 5),
            "$GPRMC,123519.25,A,4807.03800,N,01131.00000,W,22.40,84.40,230324,,,A");
  EXPECT_EQ(head(format_vtg(f, "II")), "$IIVTG,84.40,T,,M,22.40,N,41.48,K,A*");
  EXPECT_EQ(head(format_hdt(f)), "$HEHDT,86.20,T*");
  const std::string gga = format_gga(f, "GN");
  EXPECT_EQ(gga.substr(0, gga.size() - 5),
            "$GNGGA,123519.25,4807.03800,N,01131.00000,W,1,09,0.9,545.4,M,,M,,");
  for (const std::string& s : {rmc, format_vtg(f), format_hdt(f), gga}) {
    ASSERT_GE(s.size(), 6u);
    EXPECT_LE(s.size(), 82u) << s;
    EXPECT_EQ(s.substr(s.size() - 2), "\r\n");
    const auto star = s.rfind('*');
    ASSERT_NE(star, std::string::npos);
    EXPECT_EQ(std::stoul(s.substr(star + 1, 2), nullptr, 16),
              nmea_checksum(std::string_view(s).substr(1, star - 1)));
  }
}

TEST(NmeaWriter, RoundingCarriesAndAnglesWrap) {
  NavFix f = sample_fix();
  f.lat_deg = -(10 + 59.9999999 / 60);  // minutes round up to 60: the degree carries
  f.lon_deg = 179.99999999;
  f.cog_deg = 359.999;  // written 0.00, never 360.00
  f.heading_deg = -90;
  f.utc_s_of_day = 86399.999;  // stays in the day
  const std::string rmc = format_rmc(f);
  EXPECT_NE(rmc.find(",1100.00000,S,18000.00000,E,22.40,0.00,"), std::string::npos) << rmc;
  EXPECT_NE(rmc.find("$GPRMC,235959.99,"), std::string::npos) << rmc;
  EXPECT_NE(format_hdt(f).find(",270.00,T"), std::string::npos);
  f.lon_deg = 190;  // wraps to 170 W
  EXPECT_NE(format_gga(f).find(",17000.00000,W,"), std::string::npos) << format_gga(f);
}

TEST(NmeaWriter, NoFixIsWrittenAsInvalid) {
  NavFix f = sample_fix();
  f.has_fix = false;
  EXPECT_EQ(head(format_rmc(f)), "$GPRMC,123519.25,V,,,,,,,230324,,,N*");
  EXPECT_NE(format_gga(f).find(",,,,,0,00,"), std::string::npos) << format_gga(f);
  EXPECT_NE(format_vtg(f).find(",N*"), std::string::npos);
}

TEST(NmeaWriter, UpdateCarriesHdtOnlyWithAHeading) {
  NavFix f = sample_fix();
  const std::string with = format_nav_update(f, {"GN", "HC"});
  EXPECT_NE(with.find("$GNRMC"), std::string::npos);
  EXPECT_NE(with.find("$GNVTG"), std::string::npos);
  EXPECT_NE(with.find("$GNGGA"), std::string::npos);
  EXPECT_NE(with.find("$HCHDT"), std::string::npos);
  f.has_heading = false;
  EXPECT_EQ(format_nav_update(f).find("HDT"), std::string::npos);
}

TEST(NmeaWriter, RefusesBadInputClearly) {
  NavFix f = sample_fix();
  EXPECT_THROW(format_rmc(f, "G"), Error);
  EXPECT_THROW(format_rmc(f, "gp"), Error);
  f.lat_deg = 91;
  EXPECT_THROW(format_gga(f), Error);
  f = sample_fix();
  f.sog_kn = 1e300;  // clamped: the sentence still fits 82 characters
  f.altitude_m = -1e300;
  EXPECT_LE(format_rmc(f).size(), 82u);
  EXPECT_LE(format_gga(f).size(), 82u);
  EXPECT_LE(format_vtg(f).size(), 82u);
}

}  // namespace
}  // namespace sweepline::nav
