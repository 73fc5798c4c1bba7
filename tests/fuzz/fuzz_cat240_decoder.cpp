// libFuzzer target: arbitrary bytes as one UDP payload through the CAT240 decoder, both the
// Record path and the zero-copy visitor path, plus a re-encode of what decoded.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "app/asterix/cat240_decoder.hpp"
#include "app/asterix/cat240_encoder.hpp"
#include "app/common/check.hpp"

using namespace sweepline::cat240;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Decoder decoder(DecoderOptions{.keep_raw_video = true, .log_errors = false});
  std::span<const uint8_t> bytes(data, size);
  std::vector<Record> out;
  decoder.decode(bytes, 0.0, out);
  size_t visited = 0;
  decoder.decode_each(
      bytes, 0.0,
      [&](const Record& r, std::span<const uint8_t> cells, std::span<const uint8_t> raw) {
        if (r.type == MessageType::Video && cells.size() != r.nb_cells) __builtin_trap();
        if (raw.size() < octets_for_cells(r.nb_cells, r.res_bits)) __builtin_trap();
        ++visited;
      });
  if (visited != out.size()) __builtin_trap();
  // Whatever decoded must encode again and decode to the same cells.
  for (const Record& r : out) {
    try {
      std::vector<uint8_t> b = encode_block(r);
      std::vector<Record> again;
      Decoder d(DecoderOptions{.log_errors = false});
      d.decode(b, 0.0, again);
      if (again.size() != 1 || again[0].cells != r.cells) __builtin_trap();
    } catch (const sweepline::Error&) {
      // A record can legitimately be unencodable with default options (e.g. 050 too small).
    }
  }
  return 0;
}
