// CAT240 record and block encoding (see cat240_encoder.hpp).
#include "app/asterix/cat240_encoder.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstring>

#include "app/asterix/cat240_decoder.hpp"
#include "app/common/check.hpp"

namespace sweepline::cat240 {
namespace {

void put16(std::vector<uint8_t>& o, uint32_t v) {
  o.push_back(static_cast<uint8_t>(v >> 8));
  o.push_back(static_cast<uint8_t>(v));
}
void put24(std::vector<uint8_t>& o, uint32_t v) {
  o.push_back(static_cast<uint8_t>(v >> 16));
  put16(o, v);
}
void put32(std::vector<uint8_t>& o, uint32_t v) {
  put16(o, v >> 16);
  put16(o, v);
}

int res_code_from_bits(int bits) {
  switch (bits) {
    case 1:
      return 1;
    case 2:
      return 2;
    case 4:
      return 3;
    case 8:
      return 4;
    case 16:
      return 5;
    case 32:
      return 6;
    default:
      return 0;
  }
}

void put_explicit(std::vector<uint8_t>& o, const std::vector<uint8_t>& payload) {
  o.push_back(static_cast<uint8_t>(payload.size() + 1));
  o.insert(o.end(), payload.begin(), payload.end());
}

}  // namespace

void pack_cells(std::span<const uint8_t> cells, int bits, std::vector<uint8_t>& out) {
  SWL_CHECK(res_code_from_bits(bits) != 0,
            "CAT240 encode: resolution must be 1, 2, 4, 8, 16 or 32");
  const size_t n = cells.size();
  out.assign(static_cast<size_t>(octets_for_cells(n, bits)), 0);
  switch (bits) {
    case 8:
      if (n) std::memcpy(out.data(), cells.data(), n);
      break;
    case 16:
      for (size_t i = 0; i < n; ++i) out[2 * i] = out[2 * i + 1] = cells[i];  // v * 257
      break;
    case 32:
      for (size_t i = 0; i < n; ++i) std::memset(&out[4 * i], cells[i], 4);  // v * 0x01010101
      break;
    default: {
      const int top = (1 << bits) - 1;
      const int per = 8 / bits;
      for (size_t i = 0; i < n; ++i) {
        const int q = (cells[i] * top + 127) / 255;  // round(v * top / 255)
        const int shift = 8 - bits * (static_cast<int>(i % per) + 1);
        out[i / per] |= static_cast<uint8_t>(q << shift);
      }
      break;
    }
  }
}

struct Deflater::State {
  z_stream z{};
};

Deflater::Deflater() : state_(std::make_unique<State>()) {
  // What compress2 sets up: deflateInit at the default level (window 15 bits, memLevel 8).
  SWL_CHECK(deflateInit(&state_->z, Z_DEFAULT_COMPRESSION) == Z_OK,
            "CAT240 encode: zlib deflateInit failed");
}

Deflater::~Deflater() {
  deflateEnd(&state_->z);
}

void Deflater::compress(std::span<const uint8_t> in, std::vector<uint8_t>& out) {
  z_stream& z = state_->z;
  SWL_CHECK(deflateReset(&z) == Z_OK, "CAT240 encode: zlib deflateReset failed");
  out.resize(deflateBound(&z, static_cast<uLong>(in.size())));
  z.next_in = const_cast<Bytef*>(in.data());  // zlib's API is not const; it does not write
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  SWL_CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END, "CAT240 encode: zlib compression failed");
  out.resize(z.total_out);
}

void append_record(const Record& rec, const EncodeOptions& opt, std::vector<uint8_t>& out) {
  const bool video = rec.type == MessageType::Video;
  SWL_CHECK(video || rec.type == MessageType::Summary, "CAT240 encode: unknown message type");
  // Every check happens before the first octet is written, so a throw leaves `out` untouched.
  SWL_CHECK(opt.re.size() <= 254 && opt.sp.size() <= 254,
            "CAT240 encode: RE/SP field over 254 bytes");

  // Video octets first: their size decides the video block item.
  std::vector<uint8_t> packed;
  std::vector<uint8_t> zipped;
  std::span<const uint8_t> wire;
  uint32_t nb_cells = 0;
  int bits = 0;
  bool compress = false;
  VideoBlockItem item = opt.block_item;
  size_t unit = 0;
  size_t rep = 0;
  if (video) {
    bits = opt.res_bits.value_or(rec.res_bits);
    SWL_CHECK(res_code_from_bits(bits) != 0,
              "CAT240 encode: resolution must be 1, 2, 4, 8, 16 or 32 bits");
    if (!rec.raw_video.empty()) {
      wire = rec.raw_video;
      nb_cells =
          rec.nb_cells ? rec.nb_cells : static_cast<uint32_t>(rec.raw_video.size() * 8 / bits);
      SWL_CHECK(octets_for_cells(nb_cells, bits) <= rec.raw_video.size(),
                "CAT240 encode: raw_video holds fewer than nb_cells cells");
    } else {
      pack_cells(rec.cells, bits, packed);
      wire = packed;
      nb_cells = static_cast<uint32_t>(rec.cells.size());
    }
    SWL_CHECK(nb_cells <= 0xFFFFFFu && rec.cells.size() <= 0xFFFFFFu,
              "CAT240 encode: more than 2^24-1 cells");
    compress = opt.compress.value_or(rec.compressed);
    if (compress) {
      if (opt.deflater) {
        opt.deflater->compress(wire, zipped);
      } else {
        Deflater once;
        once.compress(wire, zipped);
      }
      wire = zipped;
    }
    SWL_CHECK(wire.size() <= 0xFFFF, "CAT240 encode: NB_VB over 65535 octets");
    if (item == VideoBlockItem::Auto) {
      item = wire.size() <= 255 * 4    ? VideoBlockItem::Low050
             : wire.size() <= 255 * 64 ? VideoBlockItem::Medium051
                                       : VideoBlockItem::High052;
    }
    unit = item == VideoBlockItem::Low050 ? 4 : item == VideoBlockItem::Medium051 ? 64 : 256;
    rep = std::max<size_t>(1, (wire.size() + unit - 1) / unit);
    SWL_CHECK(rep <= 255, "CAT240 encode: video does not fit the chosen video block item");
  } else {
    SWL_CHECK(rec.summary.size() <= 255, "CAT240 encode: summary over 255 characters");
  }

  const bool has_tod = opt.item_140 && rec.tod.has_value();
  const CellDurUnit unit_kind =
      opt.unit.value_or(rec.header ? rec.header->unit : CellDurUnit::Nano);
  uint8_t f1 = 0, f2 = 0;
  if (opt.item_010) f1 |= 0x80;
  f1 |= 0x40;  // 000
  if (video) {
    if (opt.item_020) f1 |= 0x20;
    f1 |= unit_kind == CellDurUnit::Nano ? 0x08 : 0x04;
    f1 |= 0x02;  // 048
    f2 |= 0x80;  // 049
    f2 |= item == VideoBlockItem::Low050 ? 0x40 : item == VideoBlockItem::Medium051 ? 0x20 : 0x10;
  } else {
    f1 |= 0x10;  // 030
  }
  if (has_tod) f2 |= 0x08;
  if (!opt.re.empty()) f2 |= 0x04;
  if (!opt.sp.empty()) f2 |= 0x02;
  if (f2) f1 |= 0x01;

  out.reserve(out.size() + 40 + rec.summary.size() + rep * unit + opt.re.size() + opt.sp.size());
  out.push_back(f1);
  if (f2) out.push_back(f2);
  if (opt.item_010) {
    out.push_back(rec.sac);
    out.push_back(rec.sic);
  }
  out.push_back(video ? 2 : 1);
  if (video) {
    if (opt.item_020) put32(out, rec.msg_index.value_or(0));
    const VideoHeader h = rec.header.value_or(VideoHeader{});
    put16(out, h.start_az);
    put16(out, h.end_az);
    put32(out, h.start_rg);
    put32(out, h.cell_dur);
    out.push_back(compress ? 0x80 : 0x00);
    out.push_back(static_cast<uint8_t>(res_code_from_bits(bits)));
    put16(out, static_cast<uint32_t>(wire.size()));
    put24(out, nb_cells);
    out.push_back(static_cast<uint8_t>(rep));
    out.insert(out.end(), wire.begin(), wire.end());
    out.insert(out.end(), rep * unit - wire.size(), opt.pad_byte);
  } else {
    out.push_back(static_cast<uint8_t>(rec.summary.size()));
    out.insert(out.end(), rec.summary.begin(), rec.summary.end());
  }
  if (has_tod) put24(out, *rec.tod & 0xFFFFFFu);
  if (!opt.re.empty()) put_explicit(out, opt.re);
  if (!opt.sp.empty()) put_explicit(out, opt.sp);
}

void append_block(std::span<const Record> records, const EncodeOptions& opt,
                  std::vector<uint8_t>& out) {
  const size_t start = out.size();
  out.push_back(kCategory);
  out.push_back(0);
  out.push_back(0);
  try {
    for (const Record& r : records) append_record(r, opt, out);
  } catch (...) {
    out.resize(start);  // a failed append leaves the buffer as it was
    throw;
  }
  const size_t len = out.size() - start;
  if (len > 0xFFFF) {
    out.resize(start);
    SWL_CHECK(false, "CAT240 encode: data block over 65535 bytes");
  }
  out[start + 1] = static_cast<uint8_t>(len >> 8);
  out[start + 2] = static_cast<uint8_t>(len);
}

std::vector<uint8_t> encode_block(std::span<const Record> records, const EncodeOptions& opt) {
  std::vector<uint8_t> out;
  append_block(records, opt, out);
  return out;
}

}  // namespace sweepline::cat240
