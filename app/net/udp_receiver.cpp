#include "app/net/udp_receiver.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <spdlog/spdlog.h>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "app/common/check.hpp"
#include "app/net/udp_socket.hpp"

namespace sweepline::net {

namespace {

constexpr std::size_t kMaxDatagram = 65536;

double wall_clock_s() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

UdpReceiver::UdpReceiver(const UdpConfig& config) : config_(config) {
  SWL_CHECK(config_.port >= 0 && config_.port <= 65535,
            "udp: port " + std::to_string(config_.port) + " is outside 0..65535");
  uint32_t addr = 0;
  if (!config_.address.empty()) addr = capture::parse_ipv4(config_.address);
  multicast_ = is_multicast(addr);
  bound_ip_ = addr;
  SWL_CHECK(
      multicast_ || config_.interface.empty(),
      "udp: an interface can only be chosen for a multicast group, not for " + config_.address);

  BoundUdp bound = bind_udp(
      {config_.address, config_.port, config_.interface, "udp"}, [&](int fd, bool /*multicast*/) {
        const int one = 1;
        // The destination address of each datagram, for recordings with the original addresses.
        ::setsockopt(fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof one);
        // The kernel's count of datagrams it dropped on this socket, with each datagram read.
        ::setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof one);

        int want = config_.rcvbuf_bytes;
        if (want > 0) {
          // Linux doubles what it is asked for (the rest is its bookkeeping) and reports the
          // doubled size; it caps the request at net.core.rmem_max unless SO_RCVBUFFORCE is allowed
          // (CAP_NET_ADMIN).
          ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof want);
          int got = 0;
          socklen_t len = sizeof got;
          ::getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &got, &len);
          if (got / 2 < want) {
            ::setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &want, sizeof want);
            ::getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &got, &len);
          }
          stats_.rcvbuf_granted = got / 2;
          if (got / 2 < want)
            spdlog::warn(
                "udp: receive buffer {} KiB instead of the {} KiB asked for: a burst longer than "
                "the "
                "buffer holds is lost (raise it with sysctl -w net.core.rmem_max={})",
                got / 2 / 1024, want / 1024, want);
          else
            spdlog::info("udp: receive buffer {} KiB", got / 2 / 1024);
        }
      });
  port_ = bound.port;
  fd_ = std::move(bound.fd);
  thread_ = std::thread([this] { run(); });
}

UdpReceiver::~UdpReceiver() {
  stop();
  std::lock_guard lock(rec_mu_);
  close_recording();
  // fd_ closes after this, which also leaves the multicast group.
}

void UdpReceiver::stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

void UdpReceiver::run() {
  std::vector<uint8_t> buf(kMaxDatagram);
  pollfd pfd{fd_.get(), POLLIN, 0};
  while (!stop_.load(std::memory_order_relaxed)) {
    const int pr = ::poll(&pfd, 1, 50);  // wakes up to notice stop_
    if (pr > 0) receive_all(buf);
    std::lock_guard lock(rec_mu_);
    flush_recording();  // the socket is drained: the file holds everything received
  }
  // What reached the socket before the stop is still received (and recorded): a recording
  // stopped by a signal holds every datagram the host had taken in.
  receive_all(buf);
}

void UdpReceiver::receive_all(std::vector<uint8_t>& buf) {
  bool queued = false;
  for (;;) {
    sockaddr_in from{};
    alignas(cmsghdr) char control[256];
    iovec iov{buf.data(), buf.size()};
    msghdr msg{};
    msg.msg_name = &from;
    msg.msg_namelen = sizeof from;
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    const ssize_t n = ::recvmsg(fd_.get(), &msg, MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) break;
      std::lock_guard lock(mu_);
      ++stats_.errors["recv"];
      break;
    }
    uint32_t dst = bound_ip_;
    int64_t kernel_dropped = -1;
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO) {
        in_pktinfo info;
        std::memcpy(&info, CMSG_DATA(c), sizeof info);
        dst = ntohl(info.ipi_addr.s_addr);
      } else if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL) {
        uint32_t v = 0;
        std::memcpy(&v, CMSG_DATA(c), sizeof v);
        kernel_dropped = v;
      }
    }
    const bool truncated = (msg.msg_flags & MSG_TRUNC) != 0;
    capture::Datagram d;
    d.time = wall_clock_s();
    d.src_ip = ntohl(from.sin_addr.s_addr);
    d.src_port = ntohs(from.sin_port);
    d.dst_port = port_;
    d.dst_ip = dst;
    d.payload.assign(buf.begin(), buf.begin() + (truncated ? 0 : n));
    {
      std::lock_guard lock(rec_mu_);
      if (recorder_) record(d, truncated);
    }
    std::lock_guard lock(mu_);
    ++stats_.datagrams;
    if (kernel_dropped >= 0) stats_.kernel_dropped = uint64_t(kernel_dropped);
    if (truncated) {
      ++stats_.errors["truncated"];
      continue;
    }
    stats_.bytes += uint64_t(n);
    if (queue_.size() >= config_.max_queued_datagrams ||
        queued_bytes_ + std::size_t(n) > config_.max_queued_bytes) {
      ++stats_.dropped;
      continue;
    }
    queued_bytes_ += std::size_t(n);
    queue_.push_back(std::move(d));
    queued = true;
  }
  if (queued) data_cv_.notify_all();
}

void UdpReceiver::record(const capture::Datagram& d, bool truncated) {
  const char* refusal = truncated ? "truncated"
                        : rec_.format == capture::CaptureFormat::Raw
                            ? capture::raw_asterix_refusal(d.payload)
                            : nullptr;
  if (refusal) {
    ++rec_.not_written[refusal];
    return;
  }
  try {
    recorder_->write(d);
    ++rec_.written;
    rec_dirty_ = true;
  } catch (const std::exception& e) {
    rec_.error = e.what();
    spdlog::error("recording stopped: {}", rec_.error);
    recorder_.reset();
    rec_.active = false;
  }
}

void UdpReceiver::flush_recording() {
  if (!recorder_ || !rec_dirty_) return;
  rec_dirty_ = false;
  try {
    recorder_->flush();
  } catch (const std::exception& e) {
    rec_.error = e.what();
    spdlog::error("recording stopped: {}", rec_.error);
    recorder_.reset();
    rec_.active = false;
  }
}

void UdpReceiver::close_recording() {
  if (!recorder_) return;
  rec_dirty_ = true;
  flush_recording();
  if (recorder_) spdlog::info("recording stopped after {} datagrams", rec_.written);
  recorder_.reset();
  rec_.active = false;
}

void UdpReceiver::start_recording(const std::string& path, capture::CaptureFormat format) {
  auto writer = capture::open_capture_writer(path, format);  // throws before anything changes
  std::lock_guard lock(rec_mu_);
  close_recording();
  recorder_ = std::move(writer);
  rec_ = RecordingStats{};
  rec_.active = true;
  rec_.path = path;
  rec_.format = format;
}

void UdpReceiver::stop_recording() {
  std::lock_guard lock(rec_mu_);
  close_recording();
}

RecordingStats UdpReceiver::recording() const {
  std::lock_guard lock(rec_mu_);
  return rec_;
}

bool UdpReceiver::wait_for_data(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  return data_cv_.wait_for(lock, timeout, [this] { return !queue_.empty(); });
}

std::size_t UdpReceiver::drain(std::vector<capture::Datagram>& out) {
  std::vector<capture::Datagram> got;
  {
    std::lock_guard lock(mu_);
    got.swap(queue_);
    queued_bytes_ = 0;
  }
  const std::size_t n = got.size();
  if (out.empty()) {
    out = std::move(got);
  } else {
    out.insert(out.end(), std::make_move_iterator(got.begin()), std::make_move_iterator(got.end()));
  }
  return n;
}

UdpStats UdpReceiver::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

}  // namespace sweepline::net
