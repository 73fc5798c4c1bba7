#pragma once
// Reading recorded CAT240 traffic: raw ASTERIX files (concatenated data blocks), pcap and pcapng
// (through libpcap: Ethernet, Linux cooked SLL/SLL2, 802.1Q VLAN, IPv4 UDP with fragments
// reassembled) and the Eurocontrol FINAL recording format. The format is detected from the
// content, not the file name. A path may name a pipe, and "-" is standard input: such input is
// read once, as it comes (it cannot be rewound).
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace sweepline::capture {

// One UDP datagram (or, for raw and FINAL files, one ASTERIX data block / FINAL record payload).
// Addresses and ports in host byte order (239.1.2.3 is 0xEF010203); zero for raw files.
struct Datagram {
  double time = 0;  // s: capture time (pcap/pcapng: since the epoch; FINAL: since midnight,
                    // 10 ms resolution;
                    // raw: 0 — pacing from I240/140 is the replayer's business)
  uint32_t src_ip = 0, dst_ip = 0;
  uint16_t src_port = 0, dst_port = 0;
  std::vector<uint8_t> payload;
};

struct CaptureFilter {
  int port = 0;       // UDP destination port, 0 = any
  std::string group;  // destination IPv4 address (dotted), "" = any
};

enum class CaptureFormat { Raw, Pcap, Pcapng, Final };
const char* to_string(CaptureFormat f);

struct CaptureStats {
  uint64_t datagrams = 0;                   // handed out by next()
  uint64_t bytes = 0;                       // payload bytes handed out
  uint64_t non_cat240 = 0;                  // UDP payloads (after the filter) that are not CAT240
  std::map<std::string, uint64_t> skipped;  // by reason: "not_ipv4", "not_udp", "filtered",
                                            // "link_type", "truncated", "fragment_timeout",
                                            // "fragment_overflow", "fragment_incomplete"
                                            // (still missing fragments at the end of the
                                            // file), "final_bad_record"
};

class CaptureReader {
 public:
  virtual ~CaptureReader() = default;
  // Next CAT240 datagram that passes the filter; false at the end of the file (or when the rest
  // of the file is unreadable: the reason is then counted in stats().skipped).
  virtual bool next(Datagram& out) = 0;
  virtual const CaptureStats& stats() const = 0;
  virtual CaptureFormat format() const = 0;
  // Back to the first datagram (stats keep counting). Throws sweepline::Error for a pipe.
  virtual void rewind() = 0;
};

// Detects the format from the first bytes. Throws sweepline::Error when the file is missing,
// unreadable, empty, a text file, or in none of the formats. (On a pipe this consumes the input:
// open_capture detects and reads from one opening.)
CaptureFormat detect_capture_format(const std::string& path);
// Opens a capture. Throws sweepline::Error as detect_capture_format, or on a bad filter group.
std::unique_ptr<CaptureReader> open_capture(const std::string& path,
                                            const CaptureFilter& filter = {});

// Like open_capture, but a pipe or "-" is first copied whole into an unlinked temporary file (in
// the temporary folder), so the reader can rewind: what replay needs to index and loop a capture.
std::unique_ptr<CaptureReader> open_capture_rewindable(const std::string& path,
                                                       const CaptureFilter& filter = {});

// Parses a dotted IPv4 address into host byte order; throws sweepline::Error when malformed.
uint32_t parse_ipv4(const std::string& dotted);
std::string format_ipv4(uint32_t ip);

}  // namespace sweepline::capture
