#pragma once
// Encoder for ASTERIX CAT048 target reports (plots and tracks of a primary radar), used by
// `sweepline serve`, the tests and the fuzz seeds. Every value is rounded to its item's LSB; a
// record that cannot be encoded (a value out of its item's range, not finite, half of a pair
// missing) is refused with the reason before anything is written.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "app/asterix/cat048_record.hpp"

namespace sweepline::cat048 {

// Why `report` cannot be encoded ("rho out of range", ...), or nullptr when it can.
const char* encode_refusal(const TargetReport& report);

// Appends one record (FSPEC + items, no block header) to `out`. Throws sweepline::Error with the
// refusal reason when the report cannot be encoded (then `out` is untouched).
void append_record(const TargetReport& report, std::vector<uint8_t>& out);

// One data block (CAT 48, LEN, records) holding every report in order, appended to `out`.
// Throws sweepline::Error (out untouched) on a refused report or a block over 65535 bytes.
void append_block(std::span<const TargetReport> reports, std::vector<uint8_t>& out);
std::vector<uint8_t> encode_block(std::span<const TargetReport> reports);
inline std::vector<uint8_t> encode_block(const TargetReport& report) {
  return encode_block(std::span<const TargetReport>(&report, 1));
}

// The reports split over as few data blocks as keep each block within `max_block_bytes` (a UDP
// payload; 1400 keeps a datagram under a 1500-byte Ethernet MTU), in order: one datagram per
// returned block. Reports that cannot be encoded are skipped and counted in `refused` (when not
// null), so one bad track never costs the others their scan. Throws sweepline::Error when
// max_block_bytes is below 3 + the largest record (about 40 bytes) or above 65535.
std::vector<std::vector<uint8_t>> encode_datagrams(std::span<const TargetReport> reports,
                                                   size_t max_block_bytes = 1400,
                                                   size_t* refused = nullptr);

}  // namespace sweepline::cat048
