#pragma once
// Encoder for ASTERIX CAT240 (edition 1.3) video and video summary records, used by the
// simulator, the tests and the recorder. Throws sweepline::Error when a record cannot be encoded
// (too many cells for the chosen video item, a block over 65535 bytes, a summary over 255 chars).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "app/asterix/cat240_record.hpp"

namespace sweepline::cat240 {

// Which video block item carries the cells: I240/050 (4-octet units, REP <= 255),
// I240/051 (64-octet units) or I240/052 (256-octet units, REP <= 254 by the spec's note).
// Auto picks the smallest item that holds the video octets.
enum class VideoBlockItem : uint8_t { Auto, Low050, Medium051, High052 };

// zlib compression of the video octets with one deflate state kept across records: compress2
// builds and frees a state per record, about 0.2 ms each, which a server re-sending a thinned
// video (a thousand records a rotation) pays every rotation. The output is compress2's at
// Z_DEFAULT_COMPRESSION, byte for byte (deflateReset restores the state deflateInit made). One
// per thread that encodes; not thread-safe.
class Deflater {
 public:
  Deflater();
  ~Deflater();
  Deflater(const Deflater&) = delete;
  Deflater& operator=(const Deflater&) = delete;
  // `in` compressed into `out` (resized to the compressed length). Throws sweepline::Error when
  // zlib fails.
  void compress(std::span<const uint8_t> in, std::vector<uint8_t>& out);

 private:
  struct State;  // the z_stream, so that zlib.h stays out of this header
  std::unique_ptr<State> state_;
};

struct EncodeOptions {
  // Items. I240/000 is always written; I240/040/041, 048 and 049 always for video records and
  // I240/030 always for summaries.
  bool item_010 = true;  // Data Source Identifier (sac, sic)
  bool item_020 = true;  // Video Record Header, video records only (msg_index, 0 when unset)
  bool item_140 = true;  // Time of Day, only when the record has a tod
  // Overrides of the record's own fields (unset = take them from the record).
  std::optional<CellDurUnit> unit;  // nano (I240/040) or femto (I240/041) header
  std::optional<int> res_bits;      // 1, 2, 4, 8, 16, 32
  std::optional<bool> compress;     // zlib-compress the video octets (C=1, NB_VB = zlib length)
  VideoBlockItem block_item = VideoBlockItem::Auto;
  // Optional RE / SP fields: payload bytes; the encoder prefixes the length octet (payload <= 254).
  std::vector<uint8_t> re;
  std::vector<uint8_t> sp;
  // Value of the padding octets after NB_VB in the last video block unit (tests use non-zero).
  uint8_t pad_byte = 0;
  // The deflate state to compress with (kept by the caller across records); null: one made for
  // the record.
  Deflater* deflater = nullptr;
};

// Video content: when a record's `raw_video` is non-empty it WINS and is sent as the wire octets
// (before compression) at res_bits; nb_cells is then record.nb_cells, or if 0, all cells the
// octets hold. Otherwise `cells` (8-bit intensities) are converted to res_bits: sub-byte cells
// keep round(v * (2^bits-1) / 255), 16-bit cells are v * 257 and 32-bit cells v * 0x01010101, so
// that decoding gives back v exactly for 8/16/32 bits and for the levels 1/2/4 bits can hold.
// Record::nb_vb is ignored (computed), Record::nb_cells too when cells are used.

// One data block (CAT, LEN, records) holding every record of `records` in order.
std::vector<uint8_t> encode_block(std::span<const Record> records, const EncodeOptions& options);
// Same, appended to `out` (no reallocation when out has capacity): the fast path.
void append_block(std::span<const Record> records, const EncodeOptions& options,
                  std::vector<uint8_t>& out);
// One data block with one record.
inline std::vector<uint8_t> encode_block(const Record& record, const EncodeOptions& options = {}) {
  return encode_block(std::span<const Record>(&record, 1), options);
}
// Appends one record (FSPEC + items, no block header) to `out`.
void append_record(const Record& record, const EncodeOptions& options, std::vector<uint8_t>& out);

// Packs 8-bit intensities into res_bits cells by the rule above (the inverse of unpack_cells).
void pack_cells(std::span<const uint8_t> cells, int res_bits, std::vector<uint8_t>& out);

}  // namespace sweepline::cat240
