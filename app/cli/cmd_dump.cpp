// `sweepline dump CAPTURE`: decodes a capture file and prints one line per CAT240 record (text or
// JSON), then totals. See docs/asterix.md.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <string>

#include "app/asterix/cat240_decoder.hpp"
#include "app/capture/capture_reader.hpp"
#include "app/cli/command.hpp"
#include "app/cli/option_checks.hpp"

namespace sweepline::cli {
namespace {

// " reason=count" for each reason, in the totals line.
void print_counts(const std::map<std::string, uint64_t>& counts) {
  for (const auto& [k, v] : counts)
    std::printf(" %s=%llu", k.c_str(), static_cast<unsigned long long>(v));
}

struct DumpOptions {
  std::string path;
  bool json = false;
  int port = 0;
  std::string group;
  int64_t limit = 0;  // 0 = all records
  bool video = false;
};

// Printable ASCII as is; backslash and everything else as \xHH, so the text stays one line of
// valid UTF-8 whatever the producer put in it.
std::string escape_summary(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7F && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

std::string hex(const std::vector<uint8_t>& v) {
  static const char* digits = "0123456789abcdef";
  std::string s(v.size() * 2, '0');
  for (size_t i = 0; i < v.size(); ++i) {
    s[2 * i] = digits[v[i] >> 4];
    s[2 * i + 1] = digits[v[i] & 15];
  }
  return s;
}

double az_deg(uint16_t az) {
  return az * (360.0 / 65536.0);
}

void print_json(const cat240::Record& r, bool with_video) {
  nlohmann::ordered_json j;
  j["t"] = r.capture_time;
  j["sac"] = r.sac;
  j["sic"] = r.sic;
  j["typ"] = static_cast<int>(r.type);
  if (r.msg_index) j["msg_index"] = *r.msg_index;
  if (r.type == cat240::MessageType::Video && r.header) {
    const auto& h = *r.header;
    j["start_az"] = h.start_az;
    j["end_az"] = h.end_az;
    j["start_az_deg"] = az_deg(h.start_az);
    j["end_az_deg"] = az_deg(h.end_az);
    j["start_rg"] = h.start_rg;
    j["cell_dur"] = h.cell_dur;
    j["cell_dur_unit"] = h.unit == cat240::CellDurUnit::Nano ? "ns" : "fs";
    j["compressed"] = r.compressed;
    j["res_bits"] = r.res_bits;
    j["nb_vb"] = r.nb_vb;
    j["nb_cells"] = r.nb_cells;
  }
  if (r.tod) j["tod"] = *r.tod / 128.0;
  if (r.type == cat240::MessageType::Summary) j["summary"] = escape_summary(r.summary);
  if (with_video && r.type == cat240::MessageType::Video) j["video"] = hex(r.cells);
  std::printf("%s\n", j.dump().c_str());
}

void print_text(const cat240::Record& r, bool with_video) {
  std::string idx = r.msg_index ? "#" + std::to_string(*r.msg_index) : "#-";
  std::string tod = r.tod ? " tod " + std::to_string(*r.tod / 128.0) : "";
  if (r.type == cat240::MessageType::Summary) {
    std::printf("%.6f %03u/%03u summary %s \"%s\"%s\n", r.capture_time, r.sac, r.sic, idx.c_str(),
                escape_summary(r.summary).c_str(), tod.c_str());
    return;
  }
  const auto& h = *r.header;
  std::printf("%.6f %03u/%03u video %s az %.3f-%.3f deg rg %u cell %u %s %u cells x %u bit%s%s\n",
              r.capture_time, r.sac, r.sic, idx.c_str(), az_deg(h.start_az), az_deg(h.end_az),
              h.start_rg, h.cell_dur, h.unit == cat240::CellDurUnit::Nano ? "ns" : "fs", r.nb_cells,
              r.res_bits, r.compressed ? " zlib" : "", tod.c_str());
  if (with_video) std::printf("  cells %s\n", hex(r.cells).c_str());
}

int run_dump(const DumpOptions& o) {
  capture::CaptureFilter filter;
  filter.port = o.port;
  filter.group = o.group;
  auto reader = capture::open_capture(o.path, filter);  // throws with a clear message
  cat240::DecoderOptions dopt;
  dopt.decode_cells = o.video;
  cat240::Decoder decoder(dopt);
  std::vector<cat240::Record> records;
  capture::Datagram d;
  int64_t printed = 0;
  bool stop = false;
  // Totals count what was decoded: with --limit, the rest of the last datagram's records too.
  while (!stop && !(o.limit > 0 && printed >= o.limit) && reader->next(d)) {
    records.clear();
    decoder.decode(d.payload, d.time, records);
    for (const auto& r : records) {
      if (o.limit > 0 && printed >= o.limit) {
        stop = true;
        break;
      }
      if (o.json)
        print_json(r, o.video);
      else
        print_text(r, o.video);
      ++printed;
    }
  }
  const auto& ds = decoder.stats();
  const auto& cs = reader->stats();
  uint64_t skipped = cs.non_cat240;
  for (const auto& [k, v] : cs.skipped) skipped += v;
  if (o.json) {
    nlohmann::ordered_json t;
    t["records"] = ds.records;
    t["video"] = ds.video;
    t["summaries"] = ds.summaries;
    t["datagrams_skipped"] = skipped;
    t["skipped"] = nlohmann::ordered_json::object();
    if (cs.non_cat240) t["skipped"]["not_cat240"] = cs.non_cat240;
    for (const auto& [k, v] : cs.skipped) t["skipped"][k] = v;
    t["errors"] = nlohmann::ordered_json::object();
    for (const auto& [k, v] : ds.errors) t["errors"][k] = v;
    nlohmann::ordered_json line;
    line["totals"] = t;
    std::printf("%s\n", line.dump().c_str());
  } else {
    std::printf(
        "-- %s (%s): %llu records (%llu video, %llu summaries) from %llu datagrams, "
        "%llu datagrams skipped",
        o.path.c_str(), capture::to_string(reader->format()),
        static_cast<unsigned long long>(ds.records), static_cast<unsigned long long>(ds.video),
        static_cast<unsigned long long>(ds.summaries),
        static_cast<unsigned long long>(cs.datagrams), static_cast<unsigned long long>(skipped));
    if (cs.non_cat240)
      std::printf(" not_cat240=%llu", static_cast<unsigned long long>(cs.non_cat240));
    print_counts(cs.skipped);
    std::printf(", %llu errors", static_cast<unsigned long long>(ds.error_count()));
    print_counts(ds.errors);
    std::printf("\n");
  }
  return 0;
}

}  // namespace

Command add_dump_command(CLI::App& parent) {
  auto o = std::make_shared<DumpOptions>();
  Command c;
  c.app = parent.add_subcommand(
      "dump", "Print the CAT240 records of a capture (raw ASTERIX, pcap, pcapng or FINAL)");
  c.app->add_option("capture", o->path, "Capture file, a pipe, or - for standard input")
      ->required();
  c.app->add_flag("--json", o->json, "One JSON object per record, then a totals line");
  c.app->add_option("--port", o->port, "Only UDP datagrams to this destination port")
      ->check(CLI::Range(0, 65535));
  c.app->add_option("--group", o->group, "Only datagrams to this (multicast) IPv4 address")
      ->check(ipv4_check());
  c.app->add_option("--limit", o->limit, "Stop after N records (0 = all)")
      ->check(non_negative_check());
  c.app->add_flag("--video", o->video, "Also print the decoded cells as hex (8-bit intensities)");
  c.run = [o] { return run_dump(*o); };
  return c;
}

}  // namespace sweepline::cli
