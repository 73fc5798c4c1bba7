#pragma once
// A pipeline that takes at least a given time per frame: the window's tests make processing
// slow on purpose (`view --test-frame-delay-ms N`) to show that the display, the clicks and the
// keys never wait for it. It wraps the real pipeline and changes nothing else.
#include <memory>

#include "gpu/pipeline.hpp"

namespace sweepline::ui {

// `inner` processed, then a sleep until `delay_ms` have passed since process() began. Meant for
// the CPU backend, whose process() runs on the frame runner's own thread.
std::unique_ptr<gpu::Pipeline> make_delayed_pipeline(std::unique_ptr<gpu::Pipeline> inner,
                                                     int delay_ms);

}  // namespace sweepline::ui
