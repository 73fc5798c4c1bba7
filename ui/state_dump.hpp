#pragma once
// What the window shows, as JSON, for tests that must wait for the window rather than sleep
// (the script's dump-state and dump-state-every): the window's frame count and rate, the view,
// the panels, the source and its form, the processing, and where named widgets were drawn.
#include <cstdint>
#include <deque>
#include <nlohmann/json.hpp>
#include <string>

namespace sweepline::ui {

class Console;

// Frames drawn per second over the last second (the window's own count, not the pipeline's).
class FrameRate {
 public:
  void tick(double now_s);
  double fps() const;
  uint64_t frames() const { return frames_; }

 private:
  std::deque<double> times_;  // frames within the last second
  uint64_t frames_ = 0;
};

struct WindowStats {
  uint64_t frames = 0;
  double fps = 0;
  uint64_t settings_writes = 0;  // the settings file written while running
};

nlohmann::json state_json(Console& console, const WindowStats& window);
// Writes `state` to `path` through a temporary file and a rename, so that a reader never sees
// half a file. Throws sweepline::Error when it cannot.
void write_state(const std::string& path, const nlohmann::json& state);

}  // namespace sweepline::ui
