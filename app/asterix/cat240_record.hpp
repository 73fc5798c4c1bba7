#pragma once
// One decoded ASTERIX CAT240 record (edition 1.3). Shared by the decoder, the encoder, the
// capture readers, the simulator and the sweep assembler.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sweepline::cat240 {

inline constexpr uint8_t kCategory = 240;

enum class MessageType : uint8_t { Summary = 1, Video = 2 };
enum class CellDurUnit : uint8_t { Nano, Femto };  // I240/040 (ns) or I240/041 (fs)

// I240/048 RES codes 1..6 mean 1, 2, 4, 8, 16, 32 bits per cell.
inline constexpr int res_bits_from_code(int code) {
  return code >= 1 && code <= 6 ? 1 << (code - 1) : 0;
}

struct VideoHeader {      // I240/040 or I240/041
  uint16_t start_az = 0;  // LSB 360/2^16 degrees
  uint16_t end_az = 0;
  uint32_t start_rg = 0;  // index of the first cell
  uint32_t cell_dur = 0;  // ns (nano) or fs (femto)
  CellDurUnit unit = CellDurUnit::Nano;
};

struct Record {
  uint8_t sac = 0;  // I240/010
  uint8_t sic = 0;
  MessageType type = MessageType::Video;  // I240/000
  std::optional<uint32_t> msg_index;      // I240/020
  std::string summary;                    // I240/030 (Video Summary messages)
  std::optional<VideoHeader> header;      // I240/040 or 041
  bool compressed = false;                // I240/048 C
  uint8_t res_bits = 8;                   // I240/048 RES as bits per cell
  uint16_t nb_vb = 0;                     // I240/049 valid octets (compressed length when C=1)
  uint32_t nb_cells = 0;                  // I240/049 valid cells
  // Decoded cells as 8-bit intensities (nb_cells of them). 1/2/4-bit cells are scaled to 0..255
  // by v * 255 / (2^bits - 1); 16/32-bit cells keep their top 8 bits (documented in docs/).
  std::vector<uint8_t> cells;
  // The raw video octets as on the wire (after decompression), for the encoder and `dump --video`.
  std::vector<uint8_t> raw_video;
  std::optional<uint32_t> tod;  // I240/140, 1/128 s since midnight
  double capture_time = 0;      // s, set by the capture reader or receiver (0 if none)
};

}  // namespace sweepline::cat240
