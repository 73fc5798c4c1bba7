#pragma once
// Cuts rendered radials into CAT240 records and packs records into UDP payloads the way a real
// producer of the chosen style does (docs/simulator.md, data/README.md):
//   next-az      END_AZ = next radial's START_AZ, one record per block and datagram, Time of Day
//   zero-width   START_AZ == END_AZ, one record per block and datagram, no Time of Day
//   multi-record several records per data block (one block per datagram), Time of Day
//   split-1400   each radial split over messages with different START_RG, every datagram at
//                most 1400 bytes, Time of Day
// Every style uses the femto header (I240/041): a nanosecond CELL_DUR would misplace far echoes.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "app/asterix/cat240_encoder.hpp"
#include "app/asterix/cat240_record.hpp"
#include "app/sim/scenario.hpp"

namespace sweepline::sim {

// Fixed epoch of rotation 0 (a constant Unix time, not the wall clock): output never depends on
// when the simulator runs.
inline constexpr double kSimEpoch = 1767268800.0;
inline constexpr size_t kSplitPacketBytes = 1400;

// One UDP payload and the time its first record was sent.
struct Packet {
  std::vector<uint8_t> bytes;
  double time = 0;
};

class RadialProducer {
 public:
  explicit RadialProducer(const Scenario& s);

  // Appends the records of radial `a` (cells: radar.cells 8-bit values) sent at time `t` (s since
  // the epoch). With `as_decoded`, the cells are quantised as a decoder would give them back
  // (for sources that hand records over without encoding them).
  void radial(int a, const uint8_t* cells, double t, std::vector<cat240::Record>& out,
              bool as_decoded = false);
  // The Video Summary sent at the start of each rotation.
  cat240::Record summary(uint64_t rotation, double t);

  // Encodes records (in order) into datagram payloads per the style; appends to `out`.
  void pack(std::span<const cat240::Record> records, std::vector<Packet>& out) const;

  const cat240::EncodeOptions& encode_options() const { return enc_; }
  uint32_t cell_dur_fs() const { return cell_dur_fs_; }
  int records_per_block() const { return per_block_; }
  int cells_per_message() const { return cells_per_msg_; }
  void reset_index() { msg_index_ = 0; }

 private:
  Scenario s_;
  cat240::EncodeOptions enc_;
  uint32_t cell_dur_fs_ = 0;
  int per_block_ = 1;
  int cells_per_msg_ = 0;
  uint32_t msg_index_ = 0;
};

// Quantises 8-bit cells in place to what `res_bits` cells decode back to.
void quantise_cells(uint8_t* cells, size_t n, int res_bits);

}  // namespace sweepline::sim
