// libFuzzer target: arbitrary bytes as an image file (binary PGM or PNG, told apart by the first
// bytes) through the reader `sweepline label` uses. Hostile sizes must be refused by exception
// (docs/limits.md), and whatever decodes must be within those limits.
#include <cstddef>
#include <cstdint>
#include <span>

#include "app/common/check.hpp"
#include "app/common/image_io.hpp"

using namespace sweepline;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const Image8 img = decode_image(std::span<const uint8_t>(data, size), "fuzz");
    if (img.width <= 0 || img.height <= 0 || img.width > kMaxImageSide ||
        img.height > kMaxImageSide || int64_t(img.width) * img.height > kMaxImagePixels ||
        img.size() != size_t(img.width) * size_t(img.height))
      __builtin_trap();
  } catch (const Error&) {
    // Malformed, truncated or oversized images are reported by exception; that is the contract.
  }
  return 0;
}
