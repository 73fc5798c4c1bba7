#pragma once
// NMEA 0183 sentences in: RMC, VTG, HDT, THS and GGA from any talker. Every line is either
// accepted (and counted by type) or refused with one reason (and counted by it); nothing here
// throws or allocates per sentence, so hostile input on the receive path costs a counter.
//
// Rules (docs/navigation.md lists them for operators):
// - at most 82 characters including '$' and CR LF (NMEA 0183), printable ASCII only;
// - the checksum '*HH' is required unless NmeaParserConfig::require_checksum is false, and must
//   match when present;
// - the field count must be one of the layouts NMEA 0183 versions 2.0 to 4.11 define;
// - numbers are plain decimals (no exponent, no "nan"), in range (minutes < 60, course 0..360);
// - a sentence the device marks invalid (RMC status V, RMC/VTG mode N, GGA quality 0, THS mode
//   V) is accepted with valid == false: it says the feed is alive but has no usable data.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "app/common/name_table.hpp"

namespace sweepline::nav {

enum class NmeaType { Rmc, Vtg, Hdt, Ths, Gga };
inline constexpr std::size_t kNmeaTypeCount = 5;
inline constexpr NameTable<NmeaType, kNmeaTypeCount> kNmeaTypeNames{{
    {NmeaType::Rmc, "RMC"},
    {NmeaType::Vtg, "VTG"},
    {NmeaType::Hdt, "HDT"},
    {NmeaType::Ths, "THS"},
    {NmeaType::Gga, "GGA"},
}};

// Why a line was refused.
enum class NmeaReject {
  TooLong,          // over NmeaParserConfig::max_length characters
  BadCharacter,     // a byte outside printable ASCII
  NoStart,          // does not begin with '$'
  NoChecksum,       // no '*HH' while one is required
  BadChecksum,      // '*' not followed by exactly two hex digits, or the sum differs
  UnknownSentence,  // another sentence type, a proprietary '$P' one, or '!' encapsulation
  WrongFieldCount,  // not a field count of the sentence's layout
  MissingField,     // a field the sentence needs is empty (a position in a valid RMC)
  NotNumeric,       // a number field holding anything but a plain decimal
  OutOfRange,       // a number outside its field's range (latitude 91, minutes 60, hour 24)
  BadFlag,          // a letter field (status, hemisphere, unit, mode) not among those allowed
};
inline constexpr std::size_t kNmeaRejectCount = 11;
inline constexpr NameTable<NmeaReject, kNmeaRejectCount> kNmeaRejectNames{{
    {NmeaReject::TooLong, "too_long"},
    {NmeaReject::BadCharacter, "bad_character"},
    {NmeaReject::NoStart, "no_start"},
    {NmeaReject::NoChecksum, "no_checksum"},
    {NmeaReject::BadChecksum, "bad_checksum"},
    {NmeaReject::UnknownSentence, "unknown_sentence"},
    {NmeaReject::WrongFieldCount, "wrong_field_count"},
    {NmeaReject::MissingField, "missing_field"},
    {NmeaReject::NotNumeric, "not_numeric"},
    {NmeaReject::OutOfRange, "out_of_range"},
    {NmeaReject::BadFlag, "bad_flag"},
}};

struct NmeaDate {
  int year = 0, month = 0, day = 0;
};

// One accepted sentence. Fields the sentence does not carry (or left empty) are nullopt.
struct NmeaSentence {
  NmeaType type = NmeaType::Rmc;
  std::array<char, 3> talker{};  // "GP", "GN", "II", "HE", ... NUL-terminated
  bool valid = true;             // false: the device flags its data unusable (see above)
  char mode = 0;                 // mode indicator (RMC/VTG 2.3+, THS) when present: A D E M S N V
  std::optional<double> utc_s_of_day;      // RMC, GGA
  std::optional<NmeaDate> date;            // RMC (two-digit year: 1980..2079)
  std::optional<double> lat_deg, lon_deg;  // RMC, GGA: both or neither
  std::optional<double> sog_kn;            // RMC, VTG
  std::optional<double> cog_deg;           // RMC, VTG: true course over ground, [0, 360)
  std::optional<double> heading_deg;       // HDT, THS: true heading, [0, 360)
  int fix_quality = -1;                    // GGA: 0 no fix, 1 GNSS, 2 DGNSS, ... 8 simulator
  int satellites = -1;                     // GGA
  std::optional<double> hdop, altitude_m;  // GGA
};

struct NmeaParserConfig {
  // Real devices always send a checksum; a line without one is more likely a fragment or noise
  // than a sentence from an instrument, so by default it is refused.
  bool require_checksum = true;
  // NMEA 0183's limit, '$' to LF inclusive. Some high-precision receivers exceed it; raise it
  // for them.
  std::size_t max_length = 82;
};

struct NmeaCounters {
  uint64_t lines = 0;                                // non-blank lines seen (accepted + refused)
  std::array<uint64_t, kNmeaTypeCount> accepted{};   // by NmeaType
  std::array<uint64_t, kNmeaRejectCount> refused{};  // by NmeaReject
  uint64_t flagged_invalid = 0;                      // accepted sentences with valid == false

  uint64_t accepted_of(NmeaType t) const { return accepted[std::size_t(t)]; }
  uint64_t refused_of(NmeaReject r) const { return refused[std::size_t(r)]; }
  uint64_t accepted_total() const;
  uint64_t refused_total() const;
};

// Either the sentence or the reason it was refused.
struct NmeaParseResult {
  std::optional<NmeaSentence> sentence;
  NmeaReject reason = NmeaReject::NoStart;  // meaningful only without a sentence
};

// One line, with or without its CR LF. Pure: no counting.
NmeaParseResult parse_nmea(std::string_view line, const NmeaParserConfig& config = {}) noexcept;

// A parser that counts. Not thread-safe (one per receive path).
class NmeaParser {
 public:
  explicit NmeaParser(const NmeaParserConfig& config = {}) : config_(config) {}

  // One line; blank lines are ignored (not counted).
  std::optional<NmeaSentence> parse(std::string_view line) noexcept;

  // A buffer of lines separated by CR and/or LF (one UDP datagram). IEC 61162-450 framing is
  // understood: a leading "UdPbC\0" and a tag block "\...\" before a sentence are skipped.
  // Calls sink(const NmeaSentence&) for every accepted sentence; returns how many.
  template <class Sink>
  std::size_t parse_buffer(std::string_view text, Sink&& sink) noexcept(
      noexcept(sink(std::declval<const NmeaSentence&>()))) {
    std::size_t n = 0;
    text = strip_450_header(text);
    while (!text.empty()) {
      const std::size_t end = text.find_first_of("\r\n");
      const std::string_view line = text.substr(0, end);
      text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
      if (auto s = parse(strip_tag_block(line))) {
        sink(*s);
        ++n;
      }
    }
    return n;
  }

  const NmeaCounters& counters() const { return counters_; }
  const NmeaParserConfig& config() const { return config_; }

 private:
  static std::string_view strip_450_header(std::string_view text) noexcept;
  static std::string_view strip_tag_block(std::string_view line) noexcept;

  NmeaParserConfig config_;
  NmeaCounters counters_;
};

}  // namespace sweepline::nav
