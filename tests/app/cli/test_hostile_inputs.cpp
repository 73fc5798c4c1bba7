// Hostile files given to the executable: a clear message and a non-zero exit, never a signal, and
// at most 1 GiB of memory whatever the file claims (docs/limits.md). The PNG bombs are made here
// with zlib.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/shared_data.hpp"

namespace fs = std::filesystem;

namespace {

constexpr long kOneGiBKiB = 1024L * 1024L;

struct Measured {
  int status = -1;  // exit status; -1 when killed by a signal
  int signal = 0;
  long max_rss_kib = 0;
  std::string output;  // stdout and stderr
};

// Runs the executable with `args` (no shell, so the measured process is sweepline itself).
Measured run_measured(const std::vector<std::string>& args) {
  Measured m;
  const fs::path out =
      fs::temp_directory_path() / ("sweepline_hostile_" + std::to_string(getpid()) + ".out");
  const pid_t pid = fork();
  if (pid == 0) {
    std::FILE* f = std::fopen(out.c_str(), "wb");
    if (!f) _exit(127);
    dup2(fileno(f), 1);
    dup2(fileno(f), 2);
    std::vector<char*> argv;
    std::string exe = SWEEPLINE_EXE;
    argv.push_back(exe.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  int st = 0;
  rusage ru{};
  if (pid < 0 || wait4(pid, &st, 0, &ru) != pid) return m;
  m.max_rss_kib = ru.ru_maxrss;
  if (WIFEXITED(st)) m.status = WEXITSTATUS(st);
  if (WIFSIGNALED(st)) m.signal = WTERMSIG(st);
  std::ifstream in(out, std::ios::binary);
  m.output.assign(std::istreambuf_iterator<char>(in), {});
  fs::remove(out);
  return m;
}

std::string temp_path(const std::string& name) {
  const auto dir = fs::temp_directory_path() / "sweepline_test_hostile";
  fs::create_directories(dir);
  return (dir / name).string();
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

std::string be32(uint32_t v) {
  return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

std::string chunk(const std::string& type, const std::string& data) {
  uLong crc = crc32(0, reinterpret_cast<const Bytef*>(type.data()), uInt(type.size()));
  crc = crc32(crc, reinterpret_cast<const Bytef*>(data.data()), uInt(data.size()));
  return be32(uint32_t(data.size())) + type + data + be32(uint32_t(crc));
}

std::string png(uint32_t w, uint32_t h, int depth, int color, const std::string& idat) {
  const std::string ihdr = be32(w) + be32(h) + char(depth) + char(color) + '\0' + '\0' + '\0';
  return "\x89PNG\r\n\x1a\n" + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", "");
}

// Raw deflate of `n` zero bytes with zlib, ending with a full flush (byte aligned, no reference
// to earlier data) or, with `last`, as the final block.
std::string deflate_zeros(size_t n, bool last) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY), Z_OK);
  std::vector<unsigned char> zeros(n, 0), out(deflateBound(&z, uLong(n)) + 64);
  z.next_in = zeros.data();
  z.avail_in = uInt(n);
  z.next_out = out.data();
  z.avail_out = uInt(out.size());
  EXPECT_NE(deflate(&z, last ? Z_FINISH : Z_FULL_FLUSH), Z_STREAM_ERROR);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  return std::string(out.begin(), out.end());
}

// A zlib stream of `n` zero bytes: one fully flushed 1 MiB block repeated, then the rest, so a
// stream that inflates to gigabytes takes milliseconds to make.
std::string zlib_zeros(uint64_t n) {
  constexpr size_t kUnit = size_t{1} << 20;
  const std::string unit = deflate_zeros(kUnit, false);
  std::string s = "\x78\xda";
  for (uint64_t i = 0; i < n / kUnit; ++i) s += unit;
  s += deflate_zeros(size_t(n % kUnit), true);
  // Adler-32 of n zeros: A stays 1, B adds 1 per byte.
  return s + be32(uint32_t(((n % 65521) << 16) | 1));
}

// The decoded (filtered) size of an 8-bit grey PNG: one filter byte per row.
uint64_t grey_raw(uint64_t w, uint64_t h) {
  return h * (1 + w);
}

// Writes `bytes` to the temporary file `name`, runs `sweepline label` on it, then removes it.
Measured label_file(const std::string& name, const std::string& bytes) {
  const std::string path = temp_path(name);
  write_file(path, bytes);
  Measured m = run_measured({"label", path});
  fs::remove(path);
  return m;
}

void expect_refused(const Measured& m, const std::string& part) {
  EXPECT_EQ(m.signal, 0) << m.output;
  EXPECT_EQ(m.status, 1) << m.output;
  EXPECT_NE(m.output.find(part), std::string::npos) << "wanted '" << part << "' in: " << m.output;
}

}  // namespace

TEST(HostileInputs, HugeDimensionPngBombIsRefusedBeforeDecoding) {
  // 32768 x 32768, IDAT that really inflates to 1 GiB (about 1 MB of file).
  const Measured m =
      label_file("bomb_32768.png", png(32768, 32768, 8, 0, zlib_zeros(grey_raw(32768, 32768))));
  expect_refused(m, "limit of 16384 pixels a side");
  EXPECT_LT(m.max_rss_kib, kOneGiBKiB);
  RecordProperty("max_rss_kib", std::to_string(m.max_rss_kib));
}

TEST(HostileInputs, InflationBombsStayBounded) {
  // 8 x 8 pixels whose IDAT inflates to 2 GiB (about 2 MB of file): more compressed data than
  // such an image can need, refused before decoding.
  const Measured m = label_file("bomb_8x8.png", png(8, 8, 8, 0, zlib_zeros(uint64_t{2} << 30)));
  expect_refused(m, "more than a 8x8 image can need");
  EXPECT_LT(m.max_rss_kib, kOneGiBKiB);
  // 1024 x 1024 (1 MiB decoded) whose 1 MB of IDAT inflates to 1 GiB: plausible by its size, so
  // the decoder starts, and its buffer stops at the allocation limit.
  const Measured b =
      label_file("bomb_1024.png", png(1024, 1024, 8, 0, zlib_zeros(uint64_t{1} << 30)));
  expect_refused(b, "cannot decode PNG: the data inflates past the limit of 512 MiB");
  EXPECT_LT(b.max_rss_kib, kOneGiBKiB);
  RecordProperty("max_rss_kib", std::to_string(b.max_rss_kib));
}

TEST(HostileInputs, SixteenBitRgbaOverTheDecodedLimitIsRefused) {
  const uint64_t raw = uint64_t{8192} * (1 + 8192 * 8);
  const Measured m = label_file("rgba16_8192.png", png(8192, 8192, 16, 6, zlib_zeros(raw)));
  expect_refused(m, "more than the limit of 256 MiB");
  EXPECT_LT(m.max_rss_kib, kOneGiBKiB);
}

TEST(HostileInputs, LargestAcceptedImageIsLabelledWithinOneGiB) {
  // 8192 x 8192 grey (the pixel limit) from 64 KB of PNG: a legitimate image, labelled.
  const Measured m =
      label_file("zeros_8192.png", png(8192, 8192, 8, 0, zlib_zeros(grey_raw(8192, 8192))));
  EXPECT_EQ(m.signal, 0) << m.output;
  ASSERT_EQ(m.status, 0) << m.output;
  EXPECT_NE(m.output.find("8192x8192"), std::string::npos) << m.output;
  EXPECT_NE(m.output.find(": 0 components"), std::string::npos) << m.output;
  EXPECT_LT(m.max_rss_kib, kOneGiBKiB);
  RecordProperty("max_rss_kib", std::to_string(m.max_rss_kib));
}

TEST(HostileInputs, CheckerboardOverTheComponentLimitIsRefusedWithinOneGiB) {
  // 8192 x 8192 alternating pixels, 4-connected: 33.5 million components, which took 5.2 GB to
  // collect. Over LabelParams::max_components: refused with the count and the limit.
  std::string pgm = "P5\n8192 8192\n255\n";
  const size_t header = pgm.size();
  pgm.resize(header + size_t{8192} * 8192);
  for (size_t y = 0; y < 8192; ++y)
    for (size_t x = 0; x < 8192; ++x) pgm[header + y * 8192 + x] = char(((x + y) & 1) ? 255 : 0);
  const std::string path = temp_path("checker_8192.pgm");
  write_file(path, pgm);
  pgm.clear();
  const Measured m = run_measured({"label", path, "--connectivity", "4"});
  expect_refused(m, "33554432 components, more than the limit of 4194304");
  EXPECT_LT(m.max_rss_kib, kOneGiBKiB);
  RecordProperty("max_rss_kib", std::to_string(m.max_rss_kib));
  // The same image within a limit given on the command line is labelled (8-connected it is one
  // component; 4-connected with --max-components 0 it would take the gigabytes again).
  const Measured one = run_measured({"label", path, "--connectivity", "8"});
  EXPECT_EQ(one.status, 0) << one.output;
  EXPECT_NE(one.output.find(": 1 components"), std::string::npos) << one.output;
  EXPECT_LT(one.max_rss_kib, kOneGiBKiB);  // 33.5 million runs, labelled in place
  const Measured low =
      run_measured({"label", path, "--connectivity", "8", "--max-components", "-1"});
  EXPECT_EQ(low.status, 2) << low.output;
  fs::remove(path);
}

TEST(HostileInputs, TruncatedPgmIsRefusedBeforeAllocating) {
  // Within the limits (8192 x 8192 = 64 MiB) but only 100 bytes of pixels: refused before the
  // image is allocated, so the process stays near its size on a tiny image.
  const Measured base =
      label_file("tiny.pgm", std::string("P5\n2 2\n255\n") + std::string(4, '\x80'));
  ASSERT_EQ(base.status, 0) << base.output;
  const Measured m = label_file("trunc_8192.pgm", "P5\n8192 8192\n255\n" + std::string(100, '\0'));
  expect_refused(m, "PGM pixel data truncated");
  EXPECT_LT(m.max_rss_kib, base.max_rss_kib + 32 * 1024) << "allocated before checking";
}

TEST(HostileInputs, SharedHostileSamplesFailCleanly) {
  SWL_SKIP_WITHOUT_SHARED_DATA();
  const std::string dir = sweepline::test::shared_data_dir() + "/hostile/";
  if (!fs::is_directory(dir)) GTEST_SKIP() << "no " << dir;
  // An 8x8 PNG with an invalid deflate block: `label` used to crash on a null failure reason.
  const Measured corrupt = run_measured({"label", dir + "png_corrupt_idat.png"});
  expect_refused(corrupt, "cannot decode PNG");
  // 119 bytes claiming 32768 x 32768: used to allocate 1 GiB before noticing the truncation.
  const Measured pgm = run_measured({"label", dir + "pgm_32768x32768_trunc.pgm"});
  expect_refused(pgm, "limit of 16384 pixels a side");
  EXPECT_LT(pgm.max_rss_kib, 256 * 1024);
  // A settings file (the viewer's hostile input) given where an image or a capture is expected.
  const std::string json = dir + "11_max_polar_65536.json";
  expect_refused(run_measured({"label", json}), "neither a binary PGM nor a PNG");
  expect_refused(run_measured({"dump", json}), "is a text file");
}
