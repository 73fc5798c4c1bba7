#pragma once
// A scripted driver for the window, for CI under Xvfb and for demos. One command per line,
// '#' starts a comment:
//   wait SECONDS | frames N | key NAME (space left right up down plus minus s f h r del a esc)
//   screenshot PATH | zoom FACTOR (relative to the fit) | pan DX DY (pixels) | reset
//   layer NAME (only that layer: scan denoised binary labels) | show LAYER | hide LAYER
//   palette NAME | brightness NAME | afterglow NAME | threshold N | backend NAME
//   source URI | panels on|off | record PATH|off | quit
// Target tracking (docs/tracking.md); key names del (cancel selected), a (acknowledge), esc:
//   acquire NM BRG (manual acquisition at a range and PPI bearing) | click X Y (a left click on
//   the PPI, screen pixels) | select ID|nearest|dangerous|none
//   | cancel ID|all | ack ID|all
//   zone NM_FROM NM_TO BRG_FROM BRG_TO (an arc zone, true bearings) | vectors true|relative
//   vector_minutes N | trails on|off | cpa_limit NM | tcpa_limit MIN
// The window closes after the last command.
#include <string>
#include <vector>

namespace sweepline::ui {

class Console;

struct ScriptCommand {
  std::string verb;
  std::vector<std::string> args;
  int line = 0;
};

// Throws sweepline::Error naming the line for an unknown verb or a bad argument count.
std::vector<ScriptCommand> parse_script(const std::string& text);
std::vector<ScriptCommand> load_script(const std::string& path);

class ScriptRunner {
 public:
  explicit ScriptRunner(std::vector<ScriptCommand> commands) : commands_(std::move(commands)) {}
  // Runs commands until one has to wait (for time or frames); false once the script is done.
  bool step(Console& console, double now_s);

 private:
  std::vector<ScriptCommand> commands_;
  size_t next_ = 0;
  double wait_until_s_ = 0;
  int wait_frames_ = 0;
};

}  // namespace sweepline::ui
