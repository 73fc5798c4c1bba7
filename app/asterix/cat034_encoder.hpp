#pragma once
// Encoder for ASTERIX CAT034 service messages (north marker, sector crossing, with the radar's
// configuration and position), used by `sweepline serve` beside the CAT048 reports. Values are
// rounded to their LSBs; a message that cannot be encoded is refused before anything is written.
#include <cstdint>
#include <span>
#include <vector>

#include "app/asterix/cat034_record.hpp"

namespace sweepline::cat034 {

// Why `message` cannot be encoded, or nullptr when it can.
const char* encode_refusal(const ServiceMessage& message);

// Appends one record (FSPEC + items) to `out`; throws sweepline::Error (out untouched) when
// refused.
void append_record(const ServiceMessage& message, std::vector<uint8_t>& out);
// One data block (CAT 34, LEN, records) appended to `out`; throws sweepline::Error (out untouched)
// on a refused message or a block over 65535 bytes.
void append_block(std::span<const ServiceMessage> messages, std::vector<uint8_t>& out);
std::vector<uint8_t> encode_block(std::span<const ServiceMessage> messages);
inline std::vector<uint8_t> encode_block(const ServiceMessage& message) {
  return encode_block(std::span<const ServiceMessage>(&message, 1));
}

}  // namespace sweepline::cat034
