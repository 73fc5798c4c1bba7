#pragma once
// Formatting shared by the scorecards' tables and JSON (app/eval/eval_report.cpp for detection,
// app/eval/imo_eval.cpp for tracking).
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>

namespace sweepline::eval {

// printf onto the end of `out` (a line of a table: at most 511 characters).
inline void appendf(std::string& out, const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  out += buf;
}

// A number for a table: "-" when there is none (NaN), "inf" when it is unbounded.
inline std::string num(double v, int decimals) {
  if (std::isnan(v)) return "-";
  if (std::isinf(v)) return "inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// A number for JSON: null when it is not finite.
inline nlohmann::ordered_json number(double v) {
  return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

}  // namespace sweepline::eval
