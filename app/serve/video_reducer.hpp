#pragma once
// The video re-sent by `sweepline serve` as CAT240, optionally reduced for a thin link: fewer
// range cells (the strongest of each N along range), fewer azimuths (the strongest of each N
// radials in a row), fewer bits per cell and zlib compression (CAT240's own I240/048 fields, so
// any CAT240 client decodes it). Reduction keeps echoes: a cell of the reduced radial is the
// maximum of the cells it covers, never their mean, so a small target is not averaged away.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "app/asterix/cat240_encoder.hpp"
#include "app/asterix/cat240_record.hpp"

namespace sweepline::serve {

// Limits of the reduction factors (a larger factor leaves too little to show).
inline constexpr int kMaxRangeDecimation = 64;
inline constexpr int kMaxAzimuthDecimation = 64;
// Records are packed into one data block per datagram up to this many octets: an Ethernet
// MTU's UDP payload (1500 - 20 IP - 8 UDP), so a reduced stream is not IP-fragmented. A record
// larger than that goes alone (full-resolution radials are fragmented, as the radar's own are).
inline constexpr size_t kPackedDatagramMax = 1472;

struct VideoReduction {
  int range_decimation = 1;    // keep 1 cell in N along range (the maximum of the N)
  int azimuth_decimation = 1;  // keep 1 radial in N (the maximum of N radials in a row)
  int res_bits = 0;            // bits per cell on the wire: 0 as received, or 1, 2, 4, 8
  bool compress = false;       // zlib (I240/048 C bit)
  // Anything to do beyond re-encoding.
  bool reduces() const {
    return range_decimation > 1 || azimuth_decimation > 1 || res_bits != 0 || compress;
  }
};

// Throws sweepline::Error naming the first value out of range ("video range decimation must
// be 1..64, not 0").
void check_reduction(const VideoReduction& r);
// "full" or e.g. "range/2, azimuth/4, 4-bit, zlib" (status lines, the report).
std::string describe(const VideoReduction& r);

using DatagramSink = std::function<void(std::vector<uint8_t>&&)>;

// Turns the source's records into the datagrams to send. Not thread-safe: one caller (the
// thread that polls the source).
class VideoReducer {
 public:
  explicit VideoReducer(const VideoReduction& reduction);

  // Reduces and encodes `records` (a batch as the source delivered it) and calls `emit` once
  // per datagram (one CAT240 data block). Radials merged by azimuth are held until their group
  // of N is complete or the antenna passes north.
  void push(std::span<const cat240::Record> records, const DatagramSink& emit);
  // Sends the radials still held (the end of the source).
  void flush(const DatagramSink& emit);

  uint64_t records_in() const { return records_in_; }
  uint64_t records_out() const { return records_out_; }

 private:
  // Radials being merged, one group per range segment (a producer may split a radial over
  // several records with different first cells: each segment merges with its own kind).
  struct Held {
    cat240::Record record;
    int count = 0;
  };

  void reduce_range(cat240::Record& r) const;
  void merge(cat240::Record&& r);
  void release_held();
  void take(cat240::Record&& r);
  void send(const DatagramSink& emit);

  VideoReduction reduction_;
  std::vector<Held> held_;
  std::vector<cat240::Record> ready_;  // finished records of the current batch
  uint32_t next_index_ = 0;            // the outgoing stream's own I240/020 message index
  uint64_t records_in_ = 0, records_out_ = 0;
  std::vector<uint8_t> block_, scratch_;
  cat240::Deflater deflater_;  // one zlib state for every record (docs/perf/serve.md)
};

}  // namespace sweepline::serve
