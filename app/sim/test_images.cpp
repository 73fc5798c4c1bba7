#include "app/sim/test_images.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <random>
#include <utility>
#include <vector>

#include "app/common/check.hpp"

namespace sweepline::sim {

namespace {

// Uniform in [0, 1) from the raw 64-bit generator (std distributions differ between libraries).
double unit(std::mt19937_64& rng) {
  return double(rng() >> 11) * (1.0 / 9007199254740992.0);
}

Image8 random_image(double density, int w, int h, uint64_t seed) {
  Image8 img(w, h, 0);
  std::mt19937_64 rng(seed);
  for (auto& p : img.pixels) p = unit(rng) < density ? 255 : 0;
  return img;
}

// Two Archimedean spirals r = b*(theta + k*pi). A pixel's radial phase u (in pixels, modulo the
// period P) puts it on arm 0 for u in [0, 0.35P), on arm 1 for u in [0.5P, 0.85P); the gaps of
// 0.15P >= 3 pixels exceed what one 8-neighbour step can change u by, so the arms never touch.
Image8 spirals_image(int w, int h) {
  Image8 img(w, h, 0);
  const double period = 20.0;
  const double b = period / (2 * M_PI);
  const double cx = w / 2.0, cy = h / 2.0;
  // t = r - u is the arm's inner edge at this angle: it grows steadily along the arm, so cutting
  // on t ends each arm with a clean cross-section inside the image (no slivers, no pieces).
  const double t_min = period, t_max = std::min(w, h) / 2.0 - 2 - period;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double dx = x + 0.5 - cx, dy = y + 0.5 - cy;
      double r = std::hypot(dx, dy);
      double u = std::fmod(r - b * std::atan2(dy, dx), period);
      if (u < 0) u += period;
      double arm_u = u < 0.5 * period ? u : u - 0.5 * period;
      double t = r - arm_u;
      if (t < t_min || t > t_max) continue;
      if (u < 0.35 * period || (u >= 0.5 * period && u < 0.85 * period)) img.at(x, y) = 255;
    }
  return img;
}

bool inside_polygon(double px, double py, const std::array<double, 20>& v) {
  bool in = false;
  for (int i = 0, j = 9; i < 10; j = i++) {
    double xi = v[2 * i], yi = v[2 * i + 1], xj = v[2 * j], yj = v[2 * j + 1];
    if ((yi > py) != (yj > py) && px < (xj - xi) * (py - yi) / (yj - yi) + xi) in = !in;
  }
  return in;
}

void fill_star(Image8& img, double cx, double cy, double radius, double turn) {
  std::array<double, 20> v{};
  for (int i = 0; i < 10; ++i) {
    double r = (i % 2 == 0) ? radius : radius * 0.45;
    double a = turn + i * M_PI / 5;
    v[2 * i] = cx + r * std::sin(a);
    v[2 * i + 1] = cy - r * std::cos(a);
  }
  int x0 = std::max(0, int(cx - radius - 1)), x1 = std::min(img.width - 1, int(cx + radius + 1));
  int y0 = std::max(0, int(cy - radius - 1)), y1 = std::min(img.height - 1, int(cy + radius + 1));
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x)
      if (inside_polygon(x + 0.5, y + 0.5, v)) img.at(x, y) = 255;
}

// A one-pixel (8-connected) line, so it joins its stars under 8- but not always 4-connectivity.
void draw_line(Image8& img, int x0, int y0, int x1, int y1) {
  int dx = std::abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
  int dy = -std::abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
  int err = dx + dy;
  for (;;) {
    if (x0 >= 0 && y0 >= 0 && x0 < img.width && y0 < img.height) img.at(x0, y0) = 255;
    if (x0 == x1 && y0 == y1) break;
    int e2 = 2 * err;
    if (e2 >= dy) err += dy, x0 += sx;
    if (e2 <= dx) err += dx, y0 += sy;
  }
}

// Stars on a jittered grid of 40-pixel cells (radius <= 14, so stars never touch); the first
// two neighbouring stars of a row are joined by a zig-zag line, the "star-shaped" link.
Image8 stars_image(int w, int h, uint64_t seed) {
  Image8 img(w, h, 0);
  std::mt19937_64 rng(seed);
  const int cell = 40;
  struct Star {
    double x, y, r;
    int cx, cy;
  };
  std::vector<Star> stars;
  for (int gy = 0; gy + cell <= h; gy += cell)
    for (int gx = 0; gx + cell <= w; gx += cell) {
      bool present = unit(rng) < 0.6;
      double r = 4 + 10 * unit(rng);
      double jx = (unit(rng) - 0.5) * 6, jy = (unit(rng) - 0.5) * 6;
      double turn = unit(rng) * 2 * M_PI / 5;
      if (!present) continue;
      double x = gx + cell / 2.0 + jx, y = gy + cell / 2.0 + jy;
      fill_star(img, x, y, r, turn);
      stars.push_back({x, y, r, gx / cell, gy / cell});
    }
  for (size_t i = 0; i + 1 < stars.size(); ++i) {
    const Star& a = stars[i];
    const Star& c = stars[i + 1];
    if (a.cy != c.cy || c.cx != a.cx + 1) continue;
    // Zig-zag from the centre of a to the centre of c, 3 pixels either side of the axis.
    const int teeth = 6;
    int px = int(a.x), py = int(a.y);
    for (int k = 1; k <= teeth; ++k) {
      double t = double(k) / teeth;
      double off = (k == teeth) ? 0 : ((k % 2) ? 3.0 : -3.0);
      int nx = int(a.x + (c.x - a.x) * t), ny = int(a.y + (c.y - a.y) * t + off);
      draw_line(img, px, py, nx, ny);
      px = nx, py = ny;
    }
    break;
  }
  return img;
}

// N vessel-like filled ellipses (length up to 40 pixels, beam 4..8, random heading),
// one per randomly chosen cell of a grid, so they never touch: exactly N 8-connected
// components (4-connectivity can split a thin one).
Image8 vessels_image(int n, int w, int h, uint64_t seed) {
  Image8 img(w, h, 0);
  std::mt19937_64 rng(seed);
  int g = 1;
  while (int64_t(g) * g < int64_t(n) * 3 / 2 + 1) ++g;
  const double cw = double(w) / g, ch = double(h) / g;
  const double cell = std::min(cw, ch);
  SWL_CHECK(cell >= 8, "test image: too many vessels for the image size");
  std::vector<int> cells(size_t(g) * g);
  for (size_t i = 0; i < cells.size(); ++i) cells[i] = int(i);
  for (size_t i = cells.size(); i > 1; --i) std::swap(cells[i - 1], cells[rng() % i]);
  for (int k = 0; k < n; ++k) {
    int c = cells[size_t(k)];
    double cx = (c % g + 0.5) * cw, cy = (c / g + 0.5) * ch;
    double half_len = std::min(20.0, cell / 2 - 2) * (0.4 + 0.6 * unit(rng));
    double half_beam = std::min(half_len, 2.0 + 2.0 * unit(rng));
    double heading = unit(rng) * M_PI;
    double ux = std::cos(heading), uy = std::sin(heading);
    int r = int(half_len) + 1;
    for (int y = int(cy) - r; y <= int(cy) + r; ++y)
      for (int x = int(cx) - r; x <= int(cx) + r; ++x) {
        if (x < 0 || y < 0 || x >= w || y >= h) continue;
        double dx = x + 0.5 - cx, dy = y + 0.5 - cy;
        double a = (dx * ux + dy * uy) / half_len, b = (-dx * uy + dy * ux) / half_beam;
        if (a * a + b * b <= 1.0) img.at(x, y) = 255;
      }
  }
  return img;
}

}  // namespace

Image8 make_test_image(const std::string& spec, int width, int height, uint64_t seed) {
  SWL_CHECK(width > 0 && height > 0 && int64_t(width) * height <= (int64_t(1) << 30),
            "test image: bad size " + std::to_string(width) + "x" + std::to_string(height));
  if (spec.rfind("random:", 0) == 0) {
    std::string d = spec.substr(7);
    char* end = nullptr;
    double density = std::strtod(d.c_str(), &end);
    SWL_CHECK(!d.empty() && end && *end == '\0' && density >= 0 && density <= 1,
              "test image: bad density in '" + spec + "' (random:D with D in [0, 1])");
    return random_image(density, width, height, seed);
  }
  if (spec.rfind("vessels:", 0) == 0) {
    std::string d = spec.substr(8);
    char* end = nullptr;
    long n = std::strtol(d.c_str(), &end, 10);
    SWL_CHECK(!d.empty() && end && *end == '\0' && n >= 0 && n <= 1000000,
              "test image: bad count in '" + spec + "' (vessels:N)");
    return vessels_image(int(n), width, height, seed);
  }
  if (spec == "spirals") return spirals_image(width, height);
  if (spec == "stars") return stars_image(width, height, seed);
  SWL_CHECK(false, "unknown test image '" + spec + "' (random:DENSITY, spirals, stars)");
  return {};
}

}  // namespace sweepline::sim
