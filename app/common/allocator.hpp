#pragma once
// The process's allocator set for frames of megabytes that come and go every rotation.

namespace sweepline {

// Keeps freed blocks of up to 32 MiB in the heap instead of returning them to the kernel: a
// frame's images (9 MiB of labels at 1536^2, more at 4096^2) are then reused, not mapped and
// faulted in afresh. On a virtual machine whose page faults are slow that was most of the CPU
// labeller's time (write_labels 30 ms -> 0.7 ms a frame at 1536^2; docs/perf/cpu-frame.md).
// Called once, first thing in main().
void keep_frame_memory();

}  // namespace sweepline
