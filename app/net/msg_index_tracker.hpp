#pragma once
// Lost messages from I240/020 (MSG_INDEX) gaps, per data source (SAC/SIC).
#include <cstdint>
#include <map>

namespace sweepline::net {

class MsgIndexTracker {
 public:
  // A jump forward larger than this is a restarted source, not a loss.
  static constexpr uint32_t kMaxGap = 1u << 20;

  // Returns how many messages were lost just before this one.
  uint64_t observe(uint8_t sac, uint8_t sic, uint32_t index) {
    const uint16_t key = uint16_t(sac << 8 | sic);
    auto [it, fresh] = last_.try_emplace(key, index);
    if (fresh) return 0;
    const uint32_t gap = index - it->second - 1;  // wraps at 2^32 like the counter
    if (gap == 0) {
      it->second = index;
      return 0;
    }
    if (gap >= 0x80000000u) {  // index <= last: a duplicate or a late message
      ++out_of_order_;
      return 0;
    }
    it->second = index;
    if (gap > kMaxGap) {
      ++restarts_;
      return 0;
    }
    lost_ += gap;
    return gap;
  }
  uint64_t lost() const { return lost_; }
  uint64_t out_of_order() const { return out_of_order_; }
  uint64_t restarts() const { return restarts_; }
  void reset() { *this = MsgIndexTracker{}; }

 private:
  std::map<uint16_t, uint32_t> last_;
  uint64_t lost_ = 0, out_of_order_ = 0, restarts_ = 0;
};

}  // namespace sweepline::net
