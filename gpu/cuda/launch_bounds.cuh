#pragma once
// A __launch_bounds__ minimum of resident blocks that every architecture we build for can hold:
// ptxas rejects a minimum above the SM's thread limit (1024 on sm_75, 1536 on sm_86/89, 2048 on
// sm_80/90), so the wish is capped per compilation pass (the H100 keeps the full value).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define SWL_SM_MAX_THREADS 1024
#elif defined(__CUDA_ARCH__) && \
    (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890)
#define SWL_SM_MAX_THREADS 1536
#else
#define SWL_SM_MAX_THREADS 2048
#endif
#define SWL_MIN_BLOCKS(threads, wanted) \
  ((wanted) < SWL_SM_MAX_THREADS / (threads) ? (wanted) : SWL_SM_MAX_THREADS / (threads))
