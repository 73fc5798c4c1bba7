#pragma once
// Warnings in the panels stay short: their first sentence or line, cut to fit, with the whole
// text on hover (ui/panels.cpp). A multi-line note must not take over a panel.
#include <string>

namespace sweepline::ui {

// The first line (up to the first sentence's end) of `text`, at most `max_chars` (an ellipsis
// when cut). `text` itself when it is that short already.
std::string short_text(const std::string& text, size_t max_chars);

}  // namespace sweepline::ui
