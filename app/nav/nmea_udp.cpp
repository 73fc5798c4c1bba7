#include "app/nav/nmea_udp.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

#include "app/common/check.hpp"
#include "app/net/udp_socket.hpp"

namespace sweepline::nav {

namespace {

// The largest UDP payload; NMEA datagrams are far smaller, a larger one is refused as truncated.
constexpr std::size_t kMaxDatagram = 65536;
// The own thread wakes this often to notice stop().
constexpr int kStopPollMs = 50;

double wall_clock_s() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

NmeaUdpReceiver::NmeaUdpReceiver(const NmeaUdpConfig& config)
    : config_(config), buf_(kMaxDatagram + 1), parser_(config.parser), estimator_(config.own_ship) {
  net::BoundUdp bound =
      net::bind_udp({config_.address, config_.port, config_.interface, "nmea udp"});
  port_ = bound.port;
  fd_ = std::move(bound.fd);
  if (config_.own_thread) thread_ = std::thread([this] { run(); });
}

NmeaUdpReceiver::~NmeaUdpReceiver() {
  stop();
}

void NmeaUdpReceiver::stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

double NmeaUdpReceiver::now() const {
  return config_.clock ? config_.clock() : wall_clock_s();
}

void NmeaUdpReceiver::run() {
  pollfd pfd{fd_.get(), POLLIN, 0};
  while (!stop_.load(std::memory_order_relaxed)) {
    if (::poll(&pfd, 1, kStopPollMs) > 0) receive_all();
  }
  receive_all();
}

std::size_t NmeaUdpReceiver::poll(std::chrono::milliseconds timeout) {
  SWL_CHECK(!config_.own_thread, "nmea udp: poll() on a receiver that reads on its own thread");
  pollfd pfd{fd_.get(), POLLIN, 0};
  if (::poll(&pfd, 1, int(timeout.count())) <= 0) return 0;
  return receive_all();
}

std::size_t NmeaUdpReceiver::receive_all() {
  std::size_t accepted = 0;
  for (;;) {
    // One byte more than the largest datagram: MSG_TRUNC reports anything longer.
    const ssize_t n = ::recv(fd_.get(), buf_.data(), kMaxDatagram, MSG_DONTWAIT | MSG_TRUNC);
    if (n < 0) {
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        std::lock_guard lock(mu_);
        ++stats_.recv_errors;
      }
      break;
    }
    const double t = now();
    std::lock_guard lock(mu_);
    ++stats_.datagrams;
    if (std::size_t(n) > kMaxDatagram) {
      ++stats_.truncated;
      continue;
    }
    stats_.bytes += uint64_t(n);
    accepted += parser_.parse_buffer(std::string_view(buf_.data(), std::size_t(n)),
                                     [&](const NmeaSentence& s) { estimator_.update(s, t); });
  }
  if (accepted > 0) accepted_cv_.notify_all();
  return accepted;
}

bool NmeaUdpReceiver::wait_for_accepted(uint64_t accepted,
                                        std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mu_);
  return accepted_cv_.wait_for(lock, timeout,
                               [&] { return parser_.counters().accepted_total() >= accepted; });
}

OwnShipState NmeaUdpReceiver::state(double t_s) const {
  std::lock_guard lock(mu_);
  return estimator_.state(t_s);
}

NmeaCounters NmeaUdpReceiver::counters() const {
  std::lock_guard lock(mu_);
  return parser_.counters();
}

NmeaUdpStats NmeaUdpReceiver::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

}  // namespace sweepline::nav
