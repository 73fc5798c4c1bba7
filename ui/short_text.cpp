#include "ui/short_text.hpp"

namespace sweepline::ui {

std::string short_text(const std::string& text, size_t max_chars) {
  std::string s = text.substr(0, text.find('\n'));
  // The first sentence: a full stop followed by a space.
  if (const size_t dot = s.find(". "); dot != std::string::npos) s.resize(dot + 1);
  if (s.size() > max_chars && max_chars > 3) {
    s.resize(max_chars - 3);
    s += "...";
  }
  return s;
}

}  // namespace sweepline::ui
