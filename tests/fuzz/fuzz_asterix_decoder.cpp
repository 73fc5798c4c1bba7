// libFuzzer target: arbitrary bytes as one UDP payload through the CAT048 and CAT034 decoders
// (the first octet is also forced to each category so that most inputs reach the record parser),
// plus a re-encode of whatever decoded: it must encode, and decode and encode again to the same
// bytes.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "app/asterix/cat034_decoder.hpp"
#include "app/asterix/cat034_encoder.hpp"
#include "app/asterix/cat048_decoder.hpp"
#include "app/asterix/cat048_encoder.hpp"

using namespace sweepline;

namespace {

template <class Decoder, class Record>
void check(std::span<const uint8_t> bytes) {
  static Decoder decoder(typename Decoder::Options{.log_errors = false});
  std::vector<Record> out;
  decoder.decode(bytes, 0.0, out);
  for (const Record& r : out) {
    if (encode_refusal(r)) __builtin_trap();  // every decoded value fits its item
    const std::vector<uint8_t> once = encode_block(r);
    std::vector<Record> again;
    Decoder d(typename Decoder::Options{.log_errors = false});
    d.decode(once, 0.0, again);
    if (again.size() != 1 || d.stats().error_count() != 0) __builtin_trap();
    if (encode_block(again[0]) != once) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::span<const uint8_t> bytes(data, size);
  std::vector<uint8_t> copy(data, data + size);
  for (const uint8_t category : {cat048::kCategory, cat034::kCategory}) {
    if (!copy.empty()) copy[0] = category;
    if (category == cat048::kCategory) {
      check<cat048::Decoder, cat048::TargetReport>(bytes);
      check<cat048::Decoder, cat048::TargetReport>(copy);
    } else {
      check<cat034::Decoder, cat034::ServiceMessage>(bytes);
      check<cat034::Decoder, cat034::ServiceMessage>(copy);
    }
  }
  return 0;
}
