#pragma once
// A scripted driver for the window, for CI under Xvfb and for demos. One command per line,
// '#' starts a comment:
//   wait SECONDS | frames N | key NAME (space left right up down plus minus s f h r del a esc)
//   screenshot PATH | zoom FACTOR (relative to the fit) | pan DX DY (pixels) | reset
//   layer NAME (only that layer: scan denoised binary labels) | show LAYER | hide LAYER
//   palette NAME | brightness NAME | afterglow NAME | threshold N | backend NAME
//   source URI | panels on|off | record PATH|off | quit
// Target tracking (docs/tracking.md); key names del (cancel selected), a (acknowledge), esc,
// enter and backspace (close a polygon zone, remove its last vertex):
//   acquire NM BRG (manual acquisition at a range and PPI bearing) | click X Y (a left click on
//   the PPI, screen pixels) | select ID|nearest|dangerous|none
//   | cancel ID|all | ack ID|all
//   zone NM_FROM NM_TO BRG_FROM BRG_TO (an arc zone, true bearings)
//   | zone_polygon NM BRG NM BRG NM BRG ... (a polygon zone, vertices at ranges and PPI bearings)
//   | zone_draw arc|polygon|off (as the panel's buttons; then click, key enter|backspace|esc)
//   | zone_edit ID|none (the zone's handles shown) | zone_drag HANDLE NM BRG (the edited zone's
//   handle moved there and applied: a polygon's vertex, an arc's corner 0 or 1) | vectors
//   true|relative vector_minutes N | trails on|off | cpa_limit NM | tcpa_limit MIN
// The operator's functions (F1 lists their keys; key names pgup pgdn o m c f1 1 2 e v [ ] , . t b):
//   range NM (the range scale) | orientation north-up|head-up|course-up | motion relative|true
//   | heading DEG (the manual heading) | help on|off (the key help) | ebl N BRG T|R
//   | vrm N NM | erbl NM1 BRG1 NM2 BRG2 (true bearings from own ship)
// Tests (ui/state_dump.hpp): dump-state PATH (what the window shows, as JSON, once) |
//   dump-state-every SECONDS PATH (again and again until the window closes) |
//   wait-file PATH (until the file exists: a test's driver says when to go on)
// The window closes after the last command.
#include <optional>
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
  // The file a state dump is due in now (dump-state, dump-state-every), once per request.
  std::optional<std::string> take_dump(double now_s);

 private:
  std::vector<ScriptCommand> commands_;
  size_t next_ = 0;
  double wait_until_s_ = 0;
  int wait_frames_ = 0;
  std::string wait_file_;
  std::optional<std::string> dump_now_;
  std::string dump_path_;  // dump-state-every
  double dump_every_s_ = 0, next_dump_s_ = 0;
};

}  // namespace sweepline::ui
