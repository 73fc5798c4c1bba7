#pragma once
// The simulator's own PRNG: byte-identical output for a given seed on every platform, so no
// std::random_device and no std:: distributions (their algorithms differ between libraries).
// Every random stream is keyed by (seed, purpose, rotation, radial...) through hash64, so the
// same cells come out however the rotation is cut into chunks.
#include <cstdint>

namespace sweepline::sim {

// SplitMix64 finaliser (Steele, Lea, Flood 2014): a strong 64-bit mixer.
inline constexpr uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

inline constexpr uint64_t hash64(uint64_t a, uint64_t b = 0, uint64_t c = 0, uint64_t d = 0) {
  return mix64(mix64(mix64(mix64(a) ^ b) ^ c) ^ d);
}

// xoshiro256** (Blackman, Vigna 2018): fast, 64 bits per call; state seeded through mix64.
class Rng {
 public:
  explicit Rng(uint64_t seed) {
    uint64_t z = seed;
    for (auto& w : s_) {
      z += 0x9E3779B97F4A7C15ull;
      w = mix64(z);
    }
  }
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  // Uniform integer in [0, n) (n > 0); the modulo bias is below 2^-40 for the sizes used here.
  uint64_t below(uint64_t n) { return next() % n; }
  // Standard normal by the Box-Muller transform (scene setup only, never per cell).
  double normal();

 private:
  static constexpr uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace sweepline::sim
