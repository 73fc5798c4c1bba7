#pragma once
// Picture orientation and motion (IMO MSC.192(79) 5.19, 5.20): how the radar picture, whose
// video is referenced to own ship's bow, is turned and moved on the screen. Pure arithmetic.
//
// Three bearings meet here: the video's (relative: 0 = the bow), the true one (relative plus own
// ship's heading), and the screen's (0 = up, clockwise). The picture rotation is what a video
// bearing gains on the screen: screen = relative + rotation.
#include <string>

namespace sweepline::render {

enum class Orientation { NorthUp, HeadUp, CourseUp };
enum class Motion { Relative, True };

const char* to_string(Orientation o);  // "north-up", "head-up", "course-up"
const char* to_string(Motion m);       // "relative", "true"
// Throws sweepline::Error for an unknown name.
Orientation orientation_from_string(const std::string& s);
Motion motion_from_string(const std::string& s);
// The short tags a radar shows: "N UP", "H UP", "C UP"; "RM", "TM".
const char* short_name(Orientation o);
const char* short_name(Motion m);

double wrap360(double deg);

// Screen bearing minus relative bearing. North-up: the heading (north is up); head-up: 0;
// course-up: heading minus the course that was up when the mode was chosen or last reset.
double picture_rotation_deg(Orientation o, double heading_deg, double course_up_deg);

// The bearing scale is fixed to the screen; what it reads at screen bearing `screen_deg`: true
// bearings in north-up and course-up, relative ones in head-up (scale_is_true says which).
bool scale_is_true(Orientation o);
double scale_bearing_at(Orientation o, double screen_deg, double heading_deg, double course_up_deg);

}  // namespace sweepline::render

namespace sweepline::render {

// True motion (MSC.192(79) 5.20.3): the radar leaves its place on the screen as own ship moves.
// Own ship is reset to the off-centre place astern once it is this many radii from the centre.
inline constexpr double kTrueMotionResetRadii = 0.7;

// The radar's place (display radii right and up of the centre) in true motion: `start` where it
// was put at the reset, moved by own ship's true displacement since then (`moved_east_m`,
// `moved_north_m`) on a picture of `rotation_deg` and `range_m` radius.
void true_motion_offset(double start_x, double start_y, double moved_east_m, double moved_north_m,
                        double rotation_deg, double heading_deg, double range_m, double& x,
                        double& y);

}  // namespace sweepline::render
