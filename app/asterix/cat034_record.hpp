#pragma once
// One ASTERIX CAT034 (monoradar service message, edition 1.2x) record as Sweepline writes and
// reads it: north marker and sector crossing messages with the radar's configuration, processing
// mode and position. Values are in the items' physical units; the encoder rounds each to its LSB
// (docs/asterix-output.md lists them).
#include <cstdint>
#include <optional>

namespace sweepline::cat034 {

inline constexpr uint8_t kCategory = 34;

inline constexpr double kTodLsbS = 1.0 / 128.0;             // I034/030
inline constexpr double kSectorLsbDeg = 360.0 / 256.0;      // I034/020
inline constexpr double kRotationLsbS = 1.0 / 128.0;        // I034/041
inline constexpr double kLatLonLsbDeg = 180.0 / 8388608.0;  // I034/120 (180/2^23)
inline constexpr double kHeightLsbM = 1.0;                  // I034/120
inline constexpr double kMaxRotationPeriodS = 65535.0 * kRotationLsbS;

// I034/000.
enum class MessageType : uint8_t {
  NorthMarker = 1,
  SectorCrossing = 2,
  GeographicalFiltering = 3,
  JammingStrobe = 4,
};

// I034/050 System Configuration and Status: the common part and the PSR part (the SSR and Mode S
// parts are framed and skipped by the decoder; a primary radar has none).
struct SystemStatus {
  // COM
  bool nogo = false;     // system inhibited for operational use
  bool rdpc = false;     // RDP chain 2 selected
  bool rdpr = false;     // RDP reset/restart (expect new track numbers)
  bool ovl_rdp = false;  // RDP overloaded
  bool ovl_xmt = false;  // transmission subsystem overloaded
  bool msc = false;      // monitoring system disconnected
  bool tsv = false;      // time source invalid
  // PSR (written when has_psr)
  bool has_psr = true;
  bool psr_ant = false;   // antenna 2 selected
  uint8_t psr_ch_ab = 1;  // 0 none, 1 channel A only, 2 B only, 3 diversity (2 bits)
  bool psr_ovl = false;   // overload
  bool psr_msc = false;   // monitoring system disconnected
  bool operator==(const SystemStatus&) const = default;
};

// I034/060 System Processing Mode: the common part and the PSR part.
struct ProcessingMode {
  uint8_t red_rdp = 0;  // reduction steps in use for an RDP overload (3 bits)
  uint8_t red_xmt = 0;  // reduction steps for a transmission overload (3 bits)
  bool has_psr = true;
  bool psr_pol = false;     // circular polarisation (0 linear)
  uint8_t psr_red_rad = 0;  // 3 bits
  uint8_t psr_stc = 0;      // STC map 1..4 as 0..3 (2 bits)
  bool operator==(const ProcessingMode&) const = default;
};

// I034/120 3D position of the data source (WGS-84).
struct Position {
  double lat_deg = 0.0;   // [-90, 90]
  double lon_deg = 0.0;   // [-180, 180)
  double height_m = 0.0;  // above WGS-84 ellipsoid, -32768..32767
};

struct ServiceMessage {
  uint8_t sac = 0;  // I034/010
  uint8_t sic = 0;
  MessageType type = MessageType::NorthMarker;  // I034/000
  double tod_s = 0.0;                           // I034/030 (wrapped into the UTC day)
  std::optional<double> sector_deg;             // I034/020, required for a sector crossing
  std::optional<double> rotation_period_s;      // I034/041 antenna rotation period
  std::optional<SystemStatus> status;           // I034/050
  std::optional<ProcessingMode> mode;           // I034/060
  std::optional<Position> position;             // I034/120
  double capture_time = 0.0;                    // s, set by the decoder's caller
};

}  // namespace sweepline::cat034
