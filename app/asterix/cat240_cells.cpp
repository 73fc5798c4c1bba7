// Cell unpacking: packed 1/2/4/8/16/32-bit cells to 8-bit intensities. Table-driven so that the
// cost is per input octet, not per bit.
#include <array>
#include <cstring>

#include "app/asterix/cat240_decoder.hpp"

namespace sweepline::cat240 {
namespace {

// For sub-byte resolutions: the 8/bits output intensities of one input octet, first cell (most
// significant bits) first. Scale v * 255 / (2^bits - 1) maps the top level to 255 exactly.
template <int Bits>
constexpr std::array<std::array<uint8_t, 8 / Bits>, 256> make_table() {
  std::array<std::array<uint8_t, 8 / Bits>, 256> t{};
  constexpr int per = 8 / Bits;
  constexpr int top = (1 << Bits) - 1;
  for (int b = 0; b < 256; ++b) {
    for (int i = 0; i < per; ++i) {
      const int v = (b >> (8 - Bits * (i + 1))) & top;
      t[b][i] = static_cast<uint8_t>(v * 255 / top);
    }
  }
  return t;
}

constexpr auto kTable1 = make_table<1>();
constexpr auto kTable2 = make_table<2>();
constexpr auto kTable4 = make_table<4>();

template <int Bits>
void unpack_sub_byte(const uint8_t* in, uint32_t nb_cells, uint8_t* out,
                     const std::array<std::array<uint8_t, 8 / Bits>, 256>& table) {
  constexpr uint32_t per = 8 / Bits;
  const uint32_t whole = nb_cells / per;
  for (uint32_t i = 0; i < whole; ++i) std::memcpy(out + i * per, table[in[i]].data(), per);
  const uint32_t rest = nb_cells - whole * per;
  for (uint32_t k = 0; k < rest; ++k) out[whole * per + k] = table[in[whole]][k];
}

}  // namespace

void unpack_cells(std::span<const uint8_t> octets, int res_bits, uint32_t nb_cells,
                  std::vector<uint8_t>& out) {
  out.resize(nb_cells);
  if (nb_cells == 0) return;
  const uint8_t* in = octets.data();
  uint8_t* o = out.data();
  switch (res_bits) {
    case 1:
      unpack_sub_byte<1>(in, nb_cells, o, kTable1);
      break;
    case 2:
      unpack_sub_byte<2>(in, nb_cells, o, kTable2);
      break;
    case 4:
      unpack_sub_byte<4>(in, nb_cells, o, kTable4);
      break;
    case 8:
      std::memcpy(o, in, nb_cells);
      break;
    case 16:  // big-endian: the most significant octet comes first and is the one kept
      for (uint32_t i = 0; i < nb_cells; ++i) o[i] = in[2 * i];
      break;
    case 32:
      for (uint32_t i = 0; i < nb_cells; ++i) o[i] = in[4 * i];
      break;
    default:
      out.clear();
      break;
  }
}

}  // namespace sweepline::cat240
