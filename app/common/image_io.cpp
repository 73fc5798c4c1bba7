#include "app/common/image_io.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>

#include "app/common/check.hpp"

namespace {

// The PNG decoder allocates through these. Its buffers grow by doubling, so one that holds a
// decoded image at the limit (or the compressed data of one) may reserve twice that; pages it
// reserves but never writes take no memory. A zlib stream that inflates past this (a
// decompression bomb) makes the decoder fail with "outofmem" instead of growing without end.
constexpr size_t kStbMaxAllocation = 2 * static_cast<size_t>(sweepline::kMaxImageDecodedBytes);

void* stb_bounded_malloc(size_t n) {
  return n <= kStbMaxAllocation ? std::malloc(n) : nullptr;
}
void* stb_bounded_realloc(void* p, size_t n) {
  return n <= kStbMaxAllocation ? std::realloc(p, n) : nullptr;
}

}  // namespace

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_NO_STDIO  // every read goes through read_image's checked byte source
#define STBI_MALLOC(n) stb_bounded_malloc(n)
#define STBI_REALLOC(p, n) stb_bounded_realloc(p, n)
#define STBI_FREE(p) std::free(p)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

namespace sweepline {

namespace {

// Deflate's largest expansion: a 258-byte match coded in 2 bits (zlib FAQ: 1032:1). Compressed
// data shorter than the image needs divided by this cannot fill it, whatever it holds.
constexpr uint64_t kDeflateMaxRatio = 1032;

std::string mib(uint64_t bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f MiB", double(bytes) / (1024.0 * 1024.0));
  return b;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

uint32_t be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

// Where image bytes come from: a file or memory, read at any offset.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual uint64_t size() const = 0;
  // Up to n bytes from pos; fewer only at the end.
  virtual size_t read_at(uint64_t pos, uint8_t* dst, size_t n) = 0;
};

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  uint64_t size() const override { return bytes_.size(); }
  size_t read_at(uint64_t pos, uint8_t* dst, size_t n) override {
    if (pos >= bytes_.size()) return 0;
    n = static_cast<size_t>(std::min<uint64_t>(n, bytes_.size() - pos));
    if (n > 0) std::memcpy(dst, bytes_.data() + pos, n);
    return n;
  }

 private:
  std::span<const uint8_t> bytes_;
};

struct FileCloser {
  void operator()(std::FILE* f) const noexcept {
    if (f) std::fclose(f);
  }
};

class FileSource final : public ByteSource {
 public:
  explicit FileSource(const std::string& path) : file_(std::fopen(path.c_str(), "rb")) {
    SWL_CHECK(file_, "cannot open image '" + path + "': " + std::strerror(errno));
    struct stat st {};
    SWL_CHECK(::fstat(fileno(file_.get()), &st) == 0 && S_ISREG(st.st_mode),
              "image '" + path + "' is not a regular file");
    size_ = static_cast<uint64_t>(st.st_size);
  }
  uint64_t size() const override { return size_; }
  size_t read_at(uint64_t pos, uint8_t* dst, size_t n) override {
    if (pos != at_) {
      if (::fseeko(file_.get(), static_cast<off_t>(pos), SEEK_SET) != 0) return 0;
      at_ = pos;
    }
    const size_t got = std::fread(dst, 1, n, file_.get());
    at_ += got;
    return got;
  }

 private:
  std::unique_ptr<std::FILE, FileCloser> file_;
  uint64_t size_ = 0;
  uint64_t at_ = 0;
};

// Sequential reading with a small buffer, for headers.
class Cursor {
 public:
  Cursor(ByteSource& src, uint64_t pos) : src_(src), base_(pos) {}
  int get() {
    if (next_ == end_) {
      base_ += end_;
      next_ = 0;
      end_ = src_.read_at(base_, buf_, sizeof buf_);
      if (end_ == 0) return EOF;
    }
    return buf_[next_++];
  }
  // Offset of the next byte get() returns.
  uint64_t pos() const { return base_ + next_; }

 private:
  ByteSource& src_;
  uint64_t base_;  // offset of buf_[0]
  uint8_t buf_[4096] = {};
  size_t next_ = 0, end_ = 0;
};

// Reads the next PGM header token, skipping whitespace and '#' comments.
bool pgm_token(Cursor& in, long long& value) {
  int c = in.get();
  while (c != EOF) {
    if (c == '#') {
      while (c != EOF && c != '\n') c = in.get();
    } else if (!std::isspace(c)) {
      break;
    }
    c = in.get();
  }
  if (c == EOF || !std::isdigit(c)) return false;
  value = 0;
  while (c != EOF && std::isdigit(c)) {
    value = value * 10 + (c - '0');
    if (value > std::numeric_limits<int>::max()) return false;
    c = in.get();
  }
  return true;  // the single whitespace after the token is consumed
}

// The size checks every format shares; `what` names the format for the message.
void check_dimensions(const std::string& name, const char* what, long long w, long long h) {
  SWL_CHECK(w > 0 && h > 0,
            "'" + name + "': bad " + what + " size " + std::to_string(w) + "x" + std::to_string(h));
  SWL_CHECK(w <= kMaxImageSide && h <= kMaxImageSide,
            "'" + name + "': " + what + " of " + std::to_string(w) + "x" + std::to_string(h) +
                " is larger than the limit of " + std::to_string(kMaxImageSide) +
                " pixels a side (docs/limits.md)");
  SWL_CHECK(w * h <= kMaxImagePixels, "'" + name + "': " + what + " of " + std::to_string(w) + "x" +
                                          std::to_string(h) + " has more than the limit of " +
                                          std::to_string(kMaxImagePixels) +
                                          " pixels (docs/limits.md)");
}

Image8 read_pgm(ByteSource& src, const std::string& name) {
  Cursor in(src, 2);  // past "P5"
  long long w = 0, h = 0, maxval = 0;
  SWL_CHECK(pgm_token(in, w) && pgm_token(in, h) && pgm_token(in, maxval),
            "'" + name + "': malformed PGM header");
  check_dimensions(name, "PGM", w, h);
  SWL_CHECK(maxval > 0 && maxval <= 255, "'" + name + "': only 8-bit PGM is supported");
  // The pixel data must be there before the image is allocated.
  const uint64_t need = uint64_t(w) * uint64_t(h);
  const uint64_t have = src.size() > in.pos() ? src.size() - in.pos() : 0;
  SWL_CHECK(have >= need, "'" + name + "': PGM pixel data truncated: the header says " +
                              std::to_string(w) + "x" + std::to_string(h) + " (" +
                              std::to_string(need) + " bytes), the file holds " +
                              std::to_string(have));
  Image8 img{static_cast<int>(w), static_cast<int>(h)};
  SWL_CHECK(src.read_at(in.pos(), img.pixels.data(), img.size()) == img.size(),
            "'" + name + "': cannot read the PGM pixel data");
  return img;
}

// What the PNG's IHDR and IDAT chunks say, read before the decoder sees the file.
struct PngLayout {
  uint32_t width = 0, height = 0;
  int depth = 0, color = 0;
  uint64_t idat_bytes = 0;
};

PngLayout scan_png(ByteSource& src, const std::string& name) {
  PngLayout png;
  bool have_ihdr = false;
  uint64_t pos = 8;
  for (;;) {
    uint8_t head[8];
    SWL_CHECK(src.read_at(pos, head, 8) == 8, "'" + name + "': truncated PNG (no IEND chunk)");
    const uint32_t len = be32(head);
    const uint32_t type = be32(head + 4);
    SWL_CHECK(len <= 0x7FFFFFFFu, "'" + name + "': malformed PNG (chunk length)");
    SWL_CHECK(pos + 12 + len <= src.size(),
              "'" + name + "': truncated PNG (a chunk runs past the end)");
    if (!have_ihdr) {
      SWL_CHECK(type == 0x49484452u && len == 13, "'" + name + "': malformed PNG (no IHDR first)");
      uint8_t ihdr[13];
      SWL_CHECK(src.read_at(pos + 8, ihdr, 13) == 13, "'" + name + "': truncated PNG");
      png.width = be32(ihdr);
      png.height = be32(ihdr + 4);
      png.depth = ihdr[8];
      png.color = ihdr[9];
      have_ihdr = true;
    } else if (type == 0x49444154u) {  // IDAT
      png.idat_bytes += len;
    } else if (type == 0x49454E44u) {  // IEND
      break;
    }
    pos += 12 + uint64_t(len);
  }
  return png;
}

void check_png(const PngLayout& png, const std::string& name) {
  check_dimensions(name, "PNG", png.width, png.height);
  // Channels in the data, and at most after decoding (a tRNS chunk or a palette adds alpha).
  struct ColourType {
    int color, raw_channels, out_channels;
  };
  static constexpr ColourType kColourTypes[] = {
      {0, 1, 2},  // grey
      {2, 3, 4},  // RGB
      {3, 1, 4},  // palette
      {4, 2, 2},  // grey + alpha
      {6, 4, 4},  // RGBA
  };
  const auto* type = std::find_if(std::begin(kColourTypes), std::end(kColourTypes),
                                  [&](const ColourType& t) { return t.color == png.color; });
  SWL_CHECK(type != std::end(kColourTypes),
            "'" + name + "': unsupported PNG colour type " + std::to_string(png.color));
  const int raw_channels = type->raw_channels, out_channels = type->out_channels;
  SWL_CHECK(png.depth == 1 || png.depth == 2 || png.depth == 4 || png.depth == 8 || png.depth == 16,
            "'" + name + "': unsupported PNG bit depth " + std::to_string(png.depth));
  const uint64_t pixels = uint64_t(png.width) * png.height;
  const uint64_t decoded = pixels * out_channels * (png.depth == 16 ? 2 : 1);
  SWL_CHECK(decoded <= uint64_t(kMaxImageDecodedBytes),
            "'" + name + "': PNG of " + std::to_string(png.width) + "x" +
                std::to_string(png.height) + " (" + std::to_string(png.depth) +
                "-bit, colour type " + std::to_string(png.color) + ") decodes to up to " +
                mib(decoded) + ", more than the limit of " + mib(kMaxImageDecodedBytes) +
                " (docs/limits.md)");
  const uint64_t row_bytes = (uint64_t(png.width) * raw_channels * png.depth + 7) / 8;
  const uint64_t raw = uint64_t(png.height) * (1 + row_bytes);
  // Deflate's worst case is stored blocks: 5 bytes more per 64 KiB. More compressed data than
  // that (with room to spare) is not an image of this size, and the decoder would hold it all.
  SWL_CHECK(png.idat_bytes <= raw + raw / 64 + 65536,
            "'" + name + "': PNG holds " + std::to_string(png.idat_bytes) +
                " bytes of compressed data, more than a " + std::to_string(png.width) + "x" +
                std::to_string(png.height) + " image can need (" + std::to_string(raw) +
                " bytes decoded)");
  SWL_CHECK(png.idat_bytes * kDeflateMaxRatio + 1024 >= raw,
            "'" + name + "': PNG data too short: " + std::to_string(png.idat_bytes) +
                " compressed bytes cannot hold the " + std::to_string(raw) + " bytes of a " +
                std::to_string(png.width) + "x" + std::to_string(png.height) + " image");
}

// The file as stb_image reads it, minus empty IDAT chunks: the decoder copies each IDAT through a
// pointer that is still null before the first non-empty one (undefined behaviour, reported by
// UBSan), and an empty IDAT carries nothing.
class StbStream {
 public:
  explicit StbStream(ByteSource& src) : src_(src) {}

  int read(char* data, int size) {
    int total = 0;
    while (total < size) {
      cross_boundaries();
      const uint64_t span = std::min<uint64_t>(next_chunk_ - pos_, uint64_t(size - total));
      const size_t got = src_.read_at(pos_, reinterpret_cast<uint8_t*>(data) + total, span);
      pos_ += got;
      total += static_cast<int>(got);
      if (got < span) break;
    }
    return total;
  }
  void skip(int n) {
    // stb_image only skips forward through callbacks.
    uint64_t left = n > 0 ? uint64_t(n) : 0;
    while (left > 0 && pos_ < src_.size()) {
      cross_boundaries();
      const uint64_t step = std::min(left, next_chunk_ - pos_);
      pos_ += step;
      left -= step;
    }
  }
  bool eof() {
    cross_boundaries();
    return pos_ >= src_.size();
  }

 private:
  // At a chunk start: passes empty IDAT chunks, and notes where the next chunk starts.
  void cross_boundaries() {
    while (pos_ == next_chunk_) {
      uint8_t head[8];
      if (src_.read_at(pos_, head, 8) < 8) {
        next_chunk_ = std::numeric_limits<uint64_t>::max();
        return;
      }
      const uint32_t len = be32(head);
      if (len == 0 && be32(head + 4) == 0x49444154u) {
        pos_ += 12;
        next_chunk_ = pos_;
      } else {
        next_chunk_ = pos_ + 12 + len;
      }
    }
  }

  ByteSource& src_;
  uint64_t pos_ = 0;
  uint64_t next_chunk_ = 8;  // after the signature
};

Image8 read_png(ByteSource& src, const std::string& name) {
  check_png(scan_png(src, name), name);
  StbStream stream(src);
  stbi_io_callbacks io{};
  io.read = [](void* user, char* data, int size) {
    return static_cast<StbStream*>(user)->read(data, size);
  };
  io.skip = [](void* user, int n) { static_cast<StbStream*>(user)->skip(n); };
  io.eof = [](void* user) { return static_cast<StbStream*>(user)->eof() ? 1 : 0; };
  // The decoder keeps its last failure in a thread-local; clear it so an old reason is never
  // reported for this image, and a failure without one (a bad deflate block type) reads as such.
  stbi__g_failure_reason = nullptr;
  int w = 0, h = 0, comp = 0;
  std::unique_ptr<unsigned char, void (*)(void*)> data(
      stbi_load_from_callbacks(&io, &stream, &w, &h, &comp, 1), stbi_image_free);
  if (!data) {
    const char* why = stbi_failure_reason();
    std::string reason = why ? why : "corrupt image data (the decoder gave no reason)";
    if (reason == "outofmem")
      reason = "the data inflates past the limit of " + mib(kStbMaxAllocation) +
               " per decoder buffer (docs/limits.md)";
    SWL_CHECK(false, "'" + name + "': cannot decode PNG: " + reason);
  }
  check_dimensions(name, "PNG", w, h);
  Image8 img(w, h);
  std::copy(data.get(), data.get() + img.size(), img.pixels.begin());
  return img;
}

Image8 decode(ByteSource& src, const std::string& name) {
  uint8_t sig[8] = {};
  const size_t n = src.read_at(0, sig, sizeof sig);
  if (n >= 2 && sig[0] == 'P' && sig[1] == '5') return read_pgm(src, name);
  static constexpr uint8_t kPngSignature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  SWL_CHECK(n == 8 && std::memcmp(sig, kPngSignature, 8) == 0,
            "'" + name + "' is neither a binary PGM nor a PNG");
  return read_png(src, name);
}

}  // namespace

Image8 read_image(const std::string& path) {
  FileSource src(path);
  return decode(src, path);
}

Image8 decode_image(std::span<const uint8_t> bytes, const std::string& name) {
  MemorySource src(bytes);
  return decode(src, name);
}

void write_pgm(const std::string& path, const Image8& image) {
  std::ofstream out(path, std::ios::binary);
  SWL_CHECK(out, "cannot write '" + path + "'");
  out << "P5\n" << image.width << " " << image.height << "\n255\n";
  out.write(reinterpret_cast<const char*>(image.pixels.data()), std::streamsize(image.size()));
  SWL_CHECK(out, "write failed for '" + path + "'");
}

void write_png(const std::string& path, const Image8& image) {
  SWL_CHECK(
      stbi_write_png(path.c_str(), image.width, image.height, 1, image.pixels.data(), image.width),
      "cannot write PNG '" + path + "'");
}

void write_png_rgba(const std::string& path, int width, int height, const uint8_t* rgba) {
  SWL_CHECK(stbi_write_png(path.c_str(), width, height, 4, rgba, width * 4),
            "cannot write PNG '" + path + "'");
}

void write_image(const std::string& path, const Image8& image) {
  if (ends_with(path, ".png") || ends_with(path, ".PNG"))
    write_png(path, image);
  else
    write_pgm(path, image);
}

}  // namespace sweepline
