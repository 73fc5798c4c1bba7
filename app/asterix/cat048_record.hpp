#pragma once
// One ASTERIX CAT048 (monoradar target report, edition 1.2x) record as Sweepline writes and reads
// it: a primary-radar plot (I048/010, 140, 020, 040, 130) or, when it carries a track number, a
// track (adding I048/161, 042, 200, 170). Values are in the physical units the items carry on the
// wire (NM, degrees, NM/s, seconds); the encoder rounds each to its LSB, so a decoded record
// differs from the one encoded by at most half an LSB (docs/asterix-output.md lists them).
#include <cstdint>
#include <optional>

namespace sweepline::cat048 {

inline constexpr uint8_t kCategory = 48;

// LSBs of the items we write (EUROCONTROL ASTERIX Part 4, Category 048).
inline constexpr double kTodLsbS = 1.0 / 128.0;                // I048/140
inline constexpr double kRhoLsbNm = 1.0 / 256.0;               // I048/040 RHO
inline constexpr double kThetaLsbDeg = 360.0 / 65536.0;        // I048/040 THETA, I048/200 HDG
inline constexpr double kCartesianLsbNm = 1.0 / 128.0;         // I048/042 X, Y
inline constexpr double kSpeedLsbNmPerS = 1.0 / 16384.0;       // I048/200 GSP (2^-14 NM/s)
inline constexpr double kRunLengthLsbDeg = 360.0 / 8192.0;     // I048/130 SRL, PRL
inline constexpr double kRangeDiffLsbNm = 1.0 / 256.0;         // I048/130 RPD
inline constexpr double kAzimuthDiffLsbDeg = 360.0 / 16384.0;  // I048/130 APD
// Largest values the items hold.
inline constexpr double kMaxRhoNm = 65535.0 * kRhoLsbNm;              // just under 256 NM
inline constexpr double kMaxCartesianNm = 32767.0 * kCartesianLsbNm;  // +-256 NM
inline constexpr double kMaxSpeedNmPerS = 65535.0 * kSpeedLsbNmPerS;  // just under 4 NM/s
inline constexpr uint16_t kMaxTrackNumber = 4095;                     // I048/161: 12 bits

inline constexpr double kKnotsPerNmPerS = 3600.0;

// I048/020 TYP (top 3 bits of the first octet).
enum class DetectionType : uint8_t {
  None = 0,
  SinglePsr = 1,  // what a marine primary radar reports
  SingleSsr = 2,
  SsrPsr = 3,
  ModeSAllCall = 4,
  ModeSRollCall = 5,
  ModeSAllCallPsr = 6,
  ModeSRollCallPsr = 7,
};

// I048/020 Target Report Descriptor. The first extension octet is written only when one of its
// fields is set (or `extension` is true), as the FX rule asks.
struct Descriptor {
  DetectionType typ = DetectionType::SinglePsr;
  bool sim = false;  // simulated target report
  bool rdp = false;  // report from RDP chain 2
  bool spi = false;
  bool rab = false;  // report from a field monitor (fixed transponder)
  // First extension.
  bool extension = false;  // force the extension octet even when all its fields are 0
  bool tst = false;        // test target report
  bool err = false;        // extended range present
  bool xpp = false;
  bool me = false;
  bool mi = false;
  uint8_t foe_fri = 0;  // 2 bits
};

// I048/130 Radar Plot Characteristics: a compound item, each subfield optional. A primary radar
// fills PRL (plot extent in azimuth) and PAM (amplitude); the SSR subfields are decoded too. With
// no subfield set the item is not written.
struct PlotCharacteristics {
  std::optional<double> srl_deg;  // SSR plot runlength, 0..360*255/8192
  std::optional<uint8_t> srr;     // number of SSR replies
  std::optional<int8_t> sam_dbm;  // SSR reply amplitude
  std::optional<double> prl_deg;  // primary plot runlength, 0..360*255/8192 (about 11.2 deg)
  std::optional<int8_t> pam_dbm;  // primary plot amplitude
  std::optional<double> rpd_nm;   // range difference PSR - SSR, +-0.5 NM
  std::optional<double> apd_deg;  // azimuth difference PSR - SSR, +-2.8 deg
  bool operator==(const PlotCharacteristics&) const = default;
};

// I048/170 Track Status. The first extension octet is written when one of its fields is set
// (or `extension` is true).
struct TrackStatus {
  bool tentative = false;  // CNF: 0 confirmed, 1 tentative
  uint8_t rad = 1;         // 0 combined, 1 PSR track, 2 SSR/Mode S track, 3 invalid
  bool dou = false;        // low confidence in plot-to-track association
  bool mah = false;        // horizontal manoeuvre sensed
  uint8_t cdm = 0;         // climbing/descending mode: 0 maintaining (2 bits)
  // First extension.
  bool extension = false;
  bool tre = false;  // end of track: the last report of this track number
  bool gho = false;  // ghost track
  bool sup = false;
  bool tcc = false;  // plot transformed to the slant-range plane
  bool operator==(const TrackStatus&) const = default;
};

struct TargetReport {
  uint8_t sac = 0;  // I048/010
  uint8_t sic = 0;
  double tod_s = 0.0;      // I048/140, seconds since UTC midnight (wrapped into the day)
  Descriptor descriptor;   // I048/020
  double rho_nm = 0.0;     // I048/040 slant range, [0, kMaxRhoNm]
  double theta_deg = 0.0;  // I048/040 azimuth from north, any angle (written in [0, 360))
  std::optional<PlotCharacteristics> plot;  // I048/130

  // Track items (a track report has track_number set; the others are optional on their own).
  std::optional<uint16_t> track_number;  // I048/161, 0..4095
  std::optional<double> x_nm;            // I048/042 (x east, y north of the radar), both or none
  std::optional<double> y_nm;
  std::optional<double> ground_speed_nm_s;  // I048/200 GSP, both or none
  std::optional<double> heading_deg;        // I048/200 HDG, any angle (written in [0, 360))
  std::optional<TrackStatus> status;        // I048/170

  double capture_time = 0.0;  // s, set by the decoder's caller (not on the wire)

  bool is_track() const { return track_number.has_value(); }
};

}  // namespace sweepline::cat048
