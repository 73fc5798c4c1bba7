#pragma once
// A small RGBA canvas for the scorecard's charts: lines, rectangles and text in a built-in 5 x 7
// pixel font (upper case, digits and a few signs; lower case prints as upper case), so that the
// PNGs need no plotting library.
#include <cstdint>
#include <string>
#include <vector>

namespace sweepline::eval {

struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
};

class Canvas {
 public:
  Canvas(int width, int height, Rgb background);
  int width() const { return w_; }
  int height() const { return h_; }
  const std::vector<uint8_t>& rgba() const { return px_; }

  void pixel(int x, int y, Rgb c);
  void fill_rect(int x0, int y0, int x1, int y1, Rgb c);  // inclusive corners
  // A line of `thick` pixels; dashed: `dash` pixels on, `dash` off (0: solid).
  void line(double x0, double y0, double x1, double y1, Rgb c, int thick = 1, int dash = 0);
  // Text with its top-left corner at (x, y), each font pixel `scale` pixels; returns the width.
  int text(int x, int y, const std::string& s, Rgb c, int scale = 1);
  static int text_width(const std::string& s, int scale = 1);
  static constexpr int kGlyphW = 5, kGlyphH = 7, kAdvance = 6;

 private:
  int w_, h_;
  std::vector<uint8_t> px_;
};

// "Nice" tick step (1, 2 or 5 x 10^k) for about `count` ticks over `span`.
double nice_step(double span, int count);

}  // namespace sweepline::eval
