#pragma once
// The built-in simulator as a record source: `sim://SCENARIO?seed=N&rpm=R[&key=value...]`
// (keys as in docs/simulator.md; `rotations=N` ends or loops after N rotations). Records come
// paced at the radar's rate times the replay speed (unpaced when the speed is 0), already in
// decoded form (cells quantised as a decoder would give them back for RES < 8).
#include <memory>
#include <string>

#include "app/source/source.hpp"

namespace sweepline {

// Throws sweepline::Error with a message fit for the user when the URI is malformed.
std::unique_ptr<sweepline::RecordSource> open_sim_source(const std::string& uri,
                                                         const sweepline::SourceOptions& options);

}  // namespace sweepline
