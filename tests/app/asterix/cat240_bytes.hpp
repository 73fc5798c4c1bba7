#pragma once
// Building CAT240 byte sequences by hand in the decoder tests.
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace sweepline::cat240::test {

using Bytes = std::vector<uint8_t>;

inline Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// Block header (CAT 240, LEN counting itself) around record bytes.
inline Bytes block(const Bytes& records) {
  const size_t len = records.size() + 3;
  return cat({{0xF0, static_cast<uint8_t>(len >> 8), static_cast<uint8_t>(len)}, records});
}

// I240/048 (the C flag in bit 8 of its first octet, RES) then I240/049 (NB_VB, NB_CELLS).
inline Bytes layout_items(uint8_t c_octet, uint8_t res, uint16_t nb_vb, uint32_t nb_cells) {
  return {c_octet,
          res,
          static_cast<uint8_t>(nb_vb >> 8),
          static_cast<uint8_t>(nb_vb),
          static_cast<uint8_t>(nb_cells >> 16),
          static_cast<uint8_t>(nb_cells >> 8),
          static_cast<uint8_t>(nb_cells)};
}

}  // namespace sweepline::cat240::test
