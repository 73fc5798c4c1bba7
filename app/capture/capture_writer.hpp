#pragma once
// Writing CAT240 traffic to files: pcap / pcapng (each datagram framed as link layer + IPv4 + UDP
// with its addresses, ports and time) and raw ASTERIX (payloads concatenated). Used to record a
// live feed, by the simulator's output and by tests (SLL/SLL2/VLAN framing, IP fragments).
#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>

#include "app/capture/capture_reader.hpp"

namespace sweepline::capture {

enum class LinkFraming : uint8_t { Ethernet, LinuxSll, LinuxSll2 };

struct PcapWriteOptions {
  bool pcapng = false;      // pcapng (SHB, IDB, EPB) instead of classic pcap
  bool nanosecond = false;  // classic pcap with nanosecond timestamps
  LinkFraming link = LinkFraming::Ethernet;
  int vlan_id = -1;  // >= 0: one 802.1Q tag (Ethernet only)
  // > 0: split IPv4 datagrams larger than this MTU into fragments (multiple of 8 + 20 header).
  int mtu = 0;
  uint8_t ttl = 32;
};

class CaptureWriter {
 public:
  virtual ~CaptureWriter() = default;
  // Writes one datagram. Throws sweepline::Error on an I/O error or a payload over 65507 bytes.
  virtual void write(const Datagram& d) = 0;
  virtual void flush() = 0;
  virtual uint64_t datagrams_written() const = 0;
};

// pcap/pcapng writer; throws sweepline::Error when the file cannot be created.
std::unique_ptr<CaptureWriter> open_pcap_writer(const std::string& path,
                                                const PcapWriteOptions& options = {});
// Raw ASTERIX writer: payloads only, back to back (addresses and times are dropped).
std::unique_ptr<CaptureWriter> open_raw_writer(const std::string& path);
// Eurocontrol FINAL writer (8-byte header with time since midnight, 4 padding bytes 0xA5), for
// tests of the reader.
std::unique_ptr<CaptureWriter> open_final_writer(const std::string& path);

// Why `payload` must not go into a raw ASTERIX file, whose reader finds each block from the one
// before it (one datagram that is not whole ASTERIX data blocks, back to back, makes the rest of
// the file unreadable): "empty", "block_truncated" (fewer than 3 bytes left, or a LEN beyond the
// payload) or "bad_block_len" (LEN < 3), the decoder's names (docs/asterix.md). Null when it may.
const char* raw_asterix_refusal(std::span<const uint8_t> payload);

// The writer for `format` (Raw, Pcap, Pcapng, Final).
std::unique_ptr<CaptureWriter> open_capture_writer(const std::string& path, CaptureFormat format);
// "pcap" (also ""), "pcapng" or "raw": the formats a live recording can be written in. Throws
// sweepline::Error naming the accepted ones otherwise.
CaptureFormat recording_format_from_string(const std::string& name);

}  // namespace sweepline::capture
