// IPv4 fragment reassembly (see ip_reassembly.hpp).
#include "app/capture/ip_reassembly.hpp"

#include <algorithm>
#include <cstring>

namespace sweepline::capture {

void IpReassembler::expire(double now, std::map<std::string, uint64_t>& skipped) {
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (now - it->second.first_time > timeout_s_ || now < it->second.first_time - timeout_s_) {
      ++skipped["fragment_timeout"];
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
}

bool IpReassembler::add(uint32_t src, uint32_t dst, uint16_t id, uint8_t proto, uint32_t offset,
                        bool more, std::span<const uint8_t> payload, double time,
                        std::vector<uint8_t>& whole, std::map<std::string, uint64_t>& skipped) {
  expire(time, skipped);
  const uint32_t end = offset + static_cast<uint32_t>(payload.size());
  if (end > 65535 || (more && payload.size() % 8 != 0)) {
    ++skipped["fragment_overflow"];
    return false;
  }
  const Key key{src, dst, id, proto};
  auto it = pending_.find(key);
  if (it == pending_.end()) {
    if (pending_.size() >= kMaxPending) {  // evict the oldest datagram in progress
      auto oldest = std::min_element(pending_.begin(), pending_.end(), [](auto& a, auto& b) {
        return a.second.first_time < b.second.first_time;
      });
      ++skipped["fragment_overflow"];
      pending_.erase(oldest);
    }
    it = pending_.emplace(key, Pending{}).first;
    it->second.first_time = time;
  }
  Pending& p = it->second;
  if (!more) {
    if (p.total != 0 && p.total != end) {  // two different last fragments
      ++skipped["fragment_overflow"];
      pending_.erase(it);
      return false;
    }
    p.total = end;
  }
  if (p.total != 0 && end > p.total) {
    ++skipped["fragment_overflow"];
    pending_.erase(it);
    return false;
  }
  if (p.data.size() < end) p.data.resize(end);
  if (!payload.empty()) std::memcpy(p.data.data() + offset, payload.data(), payload.size());
  p.ranges.emplace_back(offset, end);
  if (p.total == 0) return false;

  // Complete when the received ranges cover [0, total).
  std::sort(p.ranges.begin(), p.ranges.end());
  uint32_t covered = 0;
  for (auto [b, e] : p.ranges) {
    if (b > covered) return false;
    covered = std::max(covered, e);
  }
  if (covered < p.total) return false;
  whole.assign(p.data.begin(), p.data.begin() + p.total);
  pending_.erase(it);
  return true;
}

}  // namespace sweepline::capture
