#include "app/nav/nmea_parser.hpp"

#include <charconv>
#include <cmath>

namespace sweepline::nav {

namespace {

// More fields than any accepted layout has (GGA: 14): a longer line is refused by count.
constexpr std::size_t kMaxFields = 16;
// IEC 61162-450 datagram header.
constexpr std::string_view k450Header{"UdPbC\0", 6};

struct Fields {
  std::array<std::string_view, kMaxFields> f{};
  std::size_t n = 0;  // data fields after the address field
  bool overflow = false;
  std::string_view operator[](std::size_t i) const { return f[i]; }
};

// A failure inside one sentence's field parsing.
struct Fail {
  NmeaReject reason;
};

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// A plain decimal: optional sign, digits, optional '.' and digits; at least one digit.
bool plain_decimal(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  std::size_t digits = 0;
  bool dot = false;
  for (; i < s.size(); ++i) {
    if (s[i] >= '0' && s[i] <= '9') {
      ++digits;
    } else if (s[i] == '.' && !dot) {
      dot = true;
    } else {
      return false;
    }
  }
  return digits > 0;
}

// The parse of one field: a value, or nullopt for an empty field; a Fail otherwise.
using Num = std::optional<double>;

bool number(std::string_view s, Num& out, NmeaReject& why) {
  if (s.empty()) {
    out.reset();
    return true;
  }
  if (!plain_decimal(s)) {
    why = NmeaReject::NotNumeric;
    return false;
  }
  const char* b = s.data();
  if (*b == '+') ++b;  // from_chars takes '-' only
  double v = 0;
  const auto r = std::from_chars(b, s.data() + s.size(), v, std::chars_format::fixed);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(v)) {
    why = NmeaReject::NotNumeric;
    return false;
  }
  out = v;
  return true;
}

// Parsing state for one sentence: the first failure wins.
class Reader {
 public:
  bool ok() const { return !failed_; }
  NmeaReject reason() const { return reason_; }
  void fail(NmeaReject r) {
    if (!failed_) reason_ = r;
    failed_ = true;
  }

  Num num(std::string_view s, double lo, double hi) {
    Num v;
    NmeaReject why{};
    if (!number(s, v, why)) {
      fail(why);
      return std::nullopt;
    }
    if (v && (*v < lo || *v > hi)) {
      fail(NmeaReject::OutOfRange);
      return std::nullopt;
    }
    return v;
  }

  // An angle in [0, 360]; 360 is read as 0.
  Num bearing(std::string_view s) {
    Num v = num(s, 0, 360);
    if (v && *v >= 360) *v = 0;
    return v;
  }

  // hhmmss[.s...]
  Num time(std::string_view s) {
    if (s.empty()) return std::nullopt;
    const std::size_t dot = s.find('.');
    if ((dot == std::string_view::npos ? s.size() : dot) != 6) {
      fail(plain_decimal(s) ? NmeaReject::OutOfRange : NmeaReject::NotNumeric);
      return std::nullopt;
    }
    const Num v = num(s, 0, 240000);
    if (!v) return std::nullopt;
    const double hh = std::floor(*v / 10000), mm = std::floor(*v / 100) - hh * 100,
                 ss = *v - hh * 10000 - mm * 100;
    // 60 s: a leap second.
    if (hh >= 24 || mm >= 60 || ss >= 61) {
      fail(NmeaReject::OutOfRange);
      return std::nullopt;
    }
    return hh * 3600 + mm * 60 + ss;
  }

  // ddmmyy
  std::optional<NmeaDate> date(std::string_view s) {
    if (s.empty()) return std::nullopt;
    for (const char c : s)
      if (c < '0' || c > '9') {
        fail(NmeaReject::NotNumeric);
        return std::nullopt;
      }
    if (s.size() != 6) {
      fail(NmeaReject::OutOfRange);
      return std::nullopt;
    }
    const auto two = [&](std::size_t i) { return (s[i] - '0') * 10 + (s[i + 1] - '0'); };
    NmeaDate d{two(4), two(2), two(0)};
    // NMEA 0183 has two-digit years; GNSS receivers this code meets were built after 1980.
    d.year += d.year < 80 ? 2000 : 1900;
    if (d.month < 1 || d.month > 12 || d.day < 1 || d.day > 31) {
      fail(NmeaReject::OutOfRange);
      return std::nullopt;
    }
    return d;
  }

  // (d)ddmm.mmm with its hemisphere letter; both empty: nullopt; one empty: missing.
  Num latlon(std::string_view v, std::string_view hemi, double max_deg, char pos, char neg) {
    if (v.empty() && hemi.empty()) return std::nullopt;
    if (v.empty() || hemi.empty()) {
      fail(NmeaReject::MissingField);
      return std::nullopt;
    }
    if (hemi.size() != 1 || (hemi[0] != pos && hemi[0] != neg)) {
      fail(NmeaReject::BadFlag);
      return std::nullopt;
    }
    if (!v.empty() && (v[0] == '-' || v[0] == '+')) {
      fail(NmeaReject::NotNumeric);
      return std::nullopt;
    }
    const Num raw = num(v, 0, max_deg * 100 + 60);
    if (!raw) return std::nullopt;
    const double deg = std::floor(*raw / 100), min = *raw - deg * 100;
    const double out = deg + min / 60;
    if (min >= 60 || out > max_deg) {
      fail(NmeaReject::OutOfRange);
      return std::nullopt;
    }
    return hemi[0] == neg ? -out : out;
  }

  // A one-letter field that must be one of `allowed` (empty allowed only when `may_be_empty`).
  char flag(std::string_view s, std::string_view allowed, bool may_be_empty) {
    if (s.empty()) {
      if (!may_be_empty) fail(NmeaReject::MissingField);
      return 0;
    }
    if (s.size() != 1 || allowed.find(s[0]) == std::string_view::npos) {
      fail(NmeaReject::BadFlag);
      return 0;
    }
    return s[0];
  }

  void require(bool present) {
    if (!present) fail(NmeaReject::MissingField);
  }

 private:
  bool failed_ = false;
  NmeaReject reason_{};
};

// FAA mode indicator (NMEA 2.3+): autonomous, differential, estimated, float/fixed RTK,
// manual, precise, simulator, not valid.
constexpr std::string_view kModes = "ADEFMPRSNV";

void parse_rmc(const Fields& f, NmeaSentence& s, Reader& r) {
  // 2.0: 11 fields; 2.3: + mode; 4.1: + navigational status.
  if (f.n < 11 || f.n > 13) return r.fail(NmeaReject::WrongFieldCount);
  s.utc_s_of_day = r.time(f[0]);
  const char status = r.flag(f[1], "AV", false);
  s.lat_deg = r.latlon(f[2], f[3], 90, 'N', 'S');
  s.lon_deg = r.latlon(f[4], f[5], 180, 'E', 'W');
  s.sog_kn = r.num(f[6], 0, 1e5);
  s.cog_deg = r.bearing(f[7]);
  s.date = r.date(f[8]);
  r.num(f[9], 0, 180);  // magnetic variation: checked, not used
  r.flag(f[10], "EW", true);
  if (f.n >= 12) s.mode = r.flag(f[11], kModes, true);
  const char nav_status = f.n >= 13 ? r.flag(f[12], "SCUV", true) : 0;
  s.valid = status == 'A' && s.mode != 'N' && s.mode != 'V' && nav_status != 'V';
  if (s.valid) r.require(s.lat_deg && s.lon_deg && s.utc_s_of_day);
}

void parse_vtg(const Fields& f, NmeaSentence& s, Reader& r) {
  // 2.0: cog,T,cog,M,sog,N,sog,K; 2.3: + mode.
  if (f.n < 8 || f.n > 9) return r.fail(NmeaReject::WrongFieldCount);
  s.cog_deg = r.bearing(f[0]);
  r.flag(f[1], "T", true);
  r.bearing(f[2]);  // magnetic: checked, not used
  r.flag(f[3], "M", true);
  const Num kn = r.num(f[4], 0, 1e5);
  r.flag(f[5], "N", true);
  const Num kmh = r.num(f[6], 0, 2e5);
  r.flag(f[7], "K", true);
  s.sog_kn = kn ? kn : kmh ? Num(*kmh / 1.852) : std::nullopt;
  if (f.n >= 9) s.mode = r.flag(f[8], kModes, true);
  s.valid = s.mode != 'N' && s.mode != 'V';
  if (s.valid) r.require(s.sog_kn || s.cog_deg);
}

void parse_hdt(const Fields& f, NmeaSentence& s, Reader& r) {
  if (f.n != 2) return r.fail(NmeaReject::WrongFieldCount);
  s.heading_deg = r.bearing(f[0]);
  r.flag(f[1], "T", false);
  r.require(s.heading_deg.has_value());
}

void parse_ths(const Fields& f, NmeaSentence& s, Reader& r) {
  if (f.n != 2) return r.fail(NmeaReject::WrongFieldCount);
  s.heading_deg = r.bearing(f[0]);
  // Autonomous, estimated (dead reckoning), manual, simulator, not valid.
  s.mode = r.flag(f[1], "AEMSV", false);
  s.valid = s.mode != 'V';
  if (s.valid) r.require(s.heading_deg.has_value());
}

void parse_gga(const Fields& f, NmeaSentence& s, Reader& r) {
  if (f.n != 14) return r.fail(NmeaReject::WrongFieldCount);
  s.utc_s_of_day = r.time(f[0]);
  s.lat_deg = r.latlon(f[1], f[2], 90, 'N', 'S');
  s.lon_deg = r.latlon(f[3], f[4], 180, 'E', 'W');
  const Num q = r.num(f[5], 0, 9);
  r.require(q.has_value());
  if (q && *q != std::floor(*q)) r.fail(NmeaReject::NotNumeric);
  s.fix_quality = q ? int(*q) : -1;
  const Num sats = r.num(f[6], 0, 99);
  s.satellites = sats ? int(*sats) : -1;
  s.hdop = r.num(f[7], 0, 1e4);
  s.altitude_m = r.num(f[8], -1e5, 1e7);
  r.flag(f[9], "M", true);
  r.num(f[10], -1e4, 1e4);  // geoid separation
  r.flag(f[11], "M", true);
  r.num(f[12], 0, 1e6);  // age of differential corrections
  s.valid = s.fix_quality > 0;
  if (s.valid) r.require(s.lat_deg && s.lon_deg && s.utc_s_of_day);
}

NmeaParseResult refuse(NmeaReject r) {
  NmeaParseResult out;
  out.reason = r;
  return out;
}

}  // namespace

uint64_t NmeaCounters::accepted_total() const {
  uint64_t t = 0;
  for (const uint64_t v : accepted) t += v;
  return t;
}

uint64_t NmeaCounters::refused_total() const {
  uint64_t t = 0;
  for (const uint64_t v : refused) t += v;
  return t;
}

NmeaParseResult parse_nmea(std::string_view line, const NmeaParserConfig& config) noexcept {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.size() + 2 > config.max_length) return refuse(NmeaReject::TooLong);
  for (const char c : line)
    if (c < 0x20 || c > 0x7e) return refuse(NmeaReject::BadCharacter);
  if (line.empty() || (line[0] != '$' && line[0] != '!')) return refuse(NmeaReject::NoStart);
  if (line[0] == '!') return refuse(NmeaReject::UnknownSentence);  // AIS and other encapsulation

  std::string_view body = line.substr(1);
  const std::size_t star = body.rfind('*');
  if (star != std::string_view::npos) {
    const std::string_view sum = body.substr(star + 1);
    if (sum.size() != 2 || hex_value(sum[0]) < 0 || hex_value(sum[1]) < 0)
      return refuse(NmeaReject::BadChecksum);
    body = body.substr(0, star);
    unsigned c = 0;
    for (const char ch : body) c ^= static_cast<unsigned char>(ch);
    if (c != unsigned(hex_value(sum[0]) * 16 + hex_value(sum[1])))
      return refuse(NmeaReject::BadChecksum);
  } else if (config.require_checksum) {
    return refuse(NmeaReject::NoChecksum);
  }

  const std::size_t comma = body.find(',');
  const std::string_view address = body.substr(0, comma);
  if (address.size() != 5 || address[0] == 'P') return refuse(NmeaReject::UnknownSentence);
  for (const char c : address)
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
      return refuse(NmeaReject::UnknownSentence);
  NmeaSentence s;
  const std::string_view type = address.substr(2);
  bool known = false;
  for (const auto& e : kNmeaTypeNames)
    if (type == e.name) {
      s.type = e.value;
      known = true;
    }
  if (!known) return refuse(NmeaReject::UnknownSentence);
  s.talker = {address[0], address[1], '\0'};

  Fields f;
  if (comma != std::string_view::npos) {
    std::string_view rest = body.substr(comma + 1);
    for (;;) {
      if (f.n == kMaxFields) {
        f.overflow = true;
        break;
      }
      const std::size_t next = rest.find(',');
      f.f[f.n++] = rest.substr(0, next);
      if (next == std::string_view::npos) break;
      rest = rest.substr(next + 1);
    }
  }
  if (f.overflow) return refuse(NmeaReject::WrongFieldCount);

  Reader r;
  switch (s.type) {
    case NmeaType::Rmc:
      parse_rmc(f, s, r);
      break;
    case NmeaType::Vtg:
      parse_vtg(f, s, r);
      break;
    case NmeaType::Hdt:
      parse_hdt(f, s, r);
      break;
    case NmeaType::Ths:
      parse_ths(f, s, r);
      break;
    case NmeaType::Gga:
      parse_gga(f, s, r);
      break;
  }
  if (!r.ok()) return refuse(r.reason());
  NmeaParseResult out;
  out.sentence = s;
  return out;
}

std::optional<NmeaSentence> NmeaParser::parse(std::string_view line) noexcept {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.find_first_not_of(' ') == std::string_view::npos) return std::nullopt;
  ++counters_.lines;
  NmeaParseResult r = parse_nmea(line, config_);
  if (!r.sentence) {
    ++counters_.refused[std::size_t(r.reason)];
    return std::nullopt;
  }
  ++counters_.accepted[std::size_t(r.sentence->type)];
  if (!r.sentence->valid) ++counters_.flagged_invalid;
  return r.sentence;
}

std::string_view NmeaParser::strip_450_header(std::string_view text) noexcept {
  if (text.substr(0, k450Header.size()) == k450Header) text.remove_prefix(k450Header.size());
  return text;
}

std::string_view NmeaParser::strip_tag_block(std::string_view line) noexcept {
  if (line.size() < 2 || line[0] != '\\') return line;
  const std::size_t end = line.find('\\', 1);
  return end == std::string_view::npos ? line : line.substr(end + 1);
}

}  // namespace sweepline::nav
