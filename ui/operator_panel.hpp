#pragma once
// The Display panel's picture and EBL/VRM controls: range scale, orientation, motion,
// off-centre, and the two EBL/VRM pairs and the ERBL (what the keys do, as widgets; F1 lists
// the keys).
namespace sweepline::ui {

class Console;

void picture_controls(Console& console);
void ebl_vrm_controls(Console& console);

}  // namespace sweepline::ui
