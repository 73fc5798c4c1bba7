#pragma once
// The papers' CUDA labelling algorithms, for comparison with the product's `fast`: `kang`
// (papers 000/001, with Alg. 6 / Alg. 7 bounding boxes) and `propagate` (paper 003), behind the
// product's labeller interface (gpu/cuda/ccl_cuda.hpp). Linked by tests, benchmarks, the CLI and
// the pipeline's backend factory, so that LabelParams::algorithm reaches them; the product
// library never depends on this one (docs/decisions/0008).
#include <memory>

#include "gpu/ccl/ccl.hpp"
#include "gpu/cuda/ccl_cuda.hpp"

namespace sweepline::gpu::reference {

// The labeller for `algorithm`: the product's CclLabeller for `fast`, the reference
// implementations for `kang` and `propagate`. A gpu::cuda::LabellerFactory.
std::unique_ptr<cuda::CudaLabeller> make_cuda_labeller(ccl::Algorithm algorithm);

// ccl::label_cuda with every algorithm available (upload, label, download).
ccl::LabelResult label_cuda(const Image8& binary, const ccl::LabelParams& params,
                            const Image8* intensity = nullptr);

}  // namespace sweepline::gpu::reference
