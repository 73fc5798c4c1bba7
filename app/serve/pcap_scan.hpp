#pragma once
// Reads back what `sweepline serve --record` wrote: every UDP datagram of a classic pcap file
// (Ethernet, IPv4, UDP, unfragmented: what capture::open_pcap_writer writes by default), of any
// payload (the capture readers hand out CAT240 only). A file cut inside a record (a server
// killed while writing) is read up to the last whole datagram and says so. The tests and the
// benchmark use it to check and measure the streams.
#include <cstdint>
#include <string>
#include <vector>

#include "app/capture/capture_reader.hpp"

namespace sweepline::serve {

struct PcapScan {
  std::vector<capture::Datagram> datagrams;
  bool truncated = false;       // the file ends inside a record (or its header)
  uint64_t trailing_bytes = 0;  // bytes after the last whole record
  uint64_t skipped = 0;         // whole records that are not IPv4 UDP on Ethernet
};

// Throws sweepline::Error when the file cannot be read or is not a classic little-endian pcap
// of Ethernet frames.
PcapScan scan_pcap(const std::string& path);

}  // namespace sweepline::serve
