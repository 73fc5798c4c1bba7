#pragma once
// The simulator as a source with its own ship's navigation (RecordSource::navigation()): the
// scenario's own ship as its gyro, log and GNSS report it, on the video's clock. `nav=0` in the
// URI leaves it out, as on a ship whose navigation feed failed.
#include <memory>
#include <string>

#include "app/nav/geodesy.hpp"
#include "app/nav/own_ship.hpp"
#include "app/sim/own_ship.hpp"
#include "app/sim/scenario.hpp"
#include "app/source/source.hpp"

namespace sweepline::source {

// The simulator's own ship at `run_t_s` seconds from the run's start as its sensors report it
// (what its NMEA would say: GNSS position, speed and course over ground, the gyro's heading,
// with the scenario's sensor errors), stamped `time_s` (the caller's clock). Positions
// in the scene's plane; `plane` is the one about (s.own.lat_deg, s.own.lon_deg), for lat/lon.
// `sweepline eval` uses it to feed the tracker the navigation the engine feeds it.
nav::OwnShipState sim_navigation(const sim::Scenario& s, sim::OwnShipTrack& own,
                                 const nav::LocalTangentPlane& plane, double run_t_s,
                                 double time_s);

// Removes `nav=0|1` (also off/on, false/true) from a sim:// URI's query; `navigation` says what
// it asked for (true when absent). Throws sweepline::Error on another value.
std::string strip_nav_option(const std::string& uri, bool& navigation);

// open_sim_source() with navigation unless the URI says nav=0. Throws as open_sim_source().
std::unique_ptr<RecordSource> open_sim_with_navigation(const std::string& uri,
                                                       const SourceOptions& options);

}  // namespace sweepline::source
