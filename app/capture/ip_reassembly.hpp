#pragma once
// IPv4 fragment reassembly with bounded memory: at most kMaxPending datagrams in progress, each at
// most 65535 bytes, dropped when incomplete for longer than the timeout (in capture time).
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace sweepline::capture {

class IpReassembler {
 public:
  static constexpr size_t kMaxPending = 64;
  explicit IpReassembler(double timeout_s = 30.0) : timeout_s_(timeout_s) {}

  // Adds the fragment whose IP payload is `payload` (offset in bytes, more = MF flag). Returns
  // true and fills `whole` (the reassembled IP payload) when the datagram is complete. Dropped
  // fragments and datagrams are counted in `skipped` by reason.
  bool add(uint32_t src, uint32_t dst, uint16_t id, uint8_t proto, uint32_t offset, bool more,
           std::span<const uint8_t> payload, double time, std::vector<uint8_t>& whole,
           std::map<std::string, uint64_t>& skipped);
  size_t pending() const { return pending_.size(); }
  void clear() { pending_.clear(); }

 private:
  struct Key {
    uint32_t src, dst;
    uint16_t id;
    uint8_t proto;
    auto operator<=>(const Key&) const = default;
  };
  struct Pending {
    double first_time = 0;
    uint32_t total = 0;  // known once the last fragment (MF = 0) arrived, else 0
    std::vector<uint8_t> data;
    std::vector<std::pair<uint32_t, uint32_t>> ranges;  // [begin, end) received
  };
  void expire(double now, std::map<std::string, uint64_t>& skipped);

  double timeout_s_;
  std::map<Key, Pending> pending_;
};

}  // namespace sweepline::capture
