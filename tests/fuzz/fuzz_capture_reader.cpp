// libFuzzer target: arbitrary bytes as a capture file (raw, pcap, pcapng or FINAL, detected from
// the content), read to the end with and without a filter, each datagram decoded.
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "app/asterix/cat240_decoder.hpp"
#include "app/capture/capture_reader.hpp"
#include "app/common/check.hpp"

using namespace sweepline;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/sweepline_fuzz_capture_" + std::to_string(getpid());
  static const struct Cleanup {
    ~Cleanup() { std::remove(path.c_str()); }
  } cleanup;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  static cat240::Decoder decoder(cat240::DecoderOptions{.log_errors = false});
  for (int pass = 0; pass < 2; ++pass) {
    capture::CaptureFilter filter;
    if (pass == 1) {
      filter.port = 8600;
      filter.group = "239.1.2.3";
    }
    try {
      auto reader = capture::open_capture(path, filter);
      capture::Datagram d;
      std::vector<cat240::Record> out;
      int n = 0;
      while (reader->next(d) && n++ < 100000) {
        if (d.payload.size() > 65535) __builtin_trap();
        out.clear();
        decoder.decode(d.payload, d.time, out);
      }
    } catch (const Error&) {
      // Unreadable or unknown files are reported by exception; that is the contract.
    }
  }
  return 0;
}
