// NMEA over UDP on loopback: one datagram of several sentences, hostile datagrams counted,
// polled and threaded receivers, a clean stop.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>

#include "app/common/check.hpp"
#include "app/nav/nmea_udp.hpp"
#include "app/nav/nmea_writer.hpp"
#include "tests/support/free_port.hpp"

namespace sweepline::nav {
namespace {

void send_to(int port, const std::string& payload) {
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(uint16_t(port));
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const ssize_t n =
      ::sendto(fd, payload.data(), payload.size(), 0, reinterpret_cast<sockaddr*>(&sa), sizeof sa);
  ::close(fd);
  ASSERT_EQ(n, ssize_t(payload.size()));
}

NavFix moving_fix() {
  NavFix f;
  f.lat_deg = 53.5;
  f.lon_deg = 9.9;
  f.sog_kn = 8.0;
  f.cog_deg = 270.0;
  f.heading_deg = 268.0;
  f.has_heading = true;
  return f;
}

TEST(NmeaUdp, ThreadedReceiverTakesADatagramOfSeveralSentences) {
  NmeaUdpConfig cfg;
  cfg.address = "127.0.0.1";
  cfg.port = test::free_udp_port();
  NmeaUdpReceiver rx(cfg);
  EXPECT_EQ(rx.port(), cfg.port);
  EXPECT_FALSE(rx.state_now().valid);
  send_to(rx.port(), format_nav_update(moving_fix()));  // RMC VTG GGA HDT in one datagram
  ASSERT_TRUE(rx.wait_for_accepted(4, std::chrono::seconds(5)));
  const OwnShipState s = rx.state_now();
  EXPECT_TRUE(s.valid) << s.warning;
  EXPECT_TRUE(s.heading_valid);
  EXPECT_NEAR(s.heading_deg, 268.0, 1e-9);
  EXPECT_NEAR(s.course_deg, 270.0, 1e-9);
  EXPECT_NEAR(s.lat_deg, 53.5, 1e-4);
  const NmeaCounters c = rx.counters();
  EXPECT_EQ(c.accepted_of(NmeaType::Rmc), 1u);
  EXPECT_EQ(c.accepted_of(NmeaType::Vtg), 1u);
  EXPECT_EQ(c.accepted_of(NmeaType::Gga), 1u);
  EXPECT_EQ(c.accepted_of(NmeaType::Hdt), 1u);
  EXPECT_EQ(rx.stats().datagrams, 1u);
  rx.stop();
  rx.stop();  // idempotent
}

TEST(NmeaUdp, PolledReceiverCountsHostileDatagrams) {
  double clock = 500.0;
  NmeaUdpConfig cfg;
  cfg.address = "127.0.0.1";
  cfg.port = test::free_udp_port();
  cfg.own_thread = false;
  cfg.clock = [&clock] { return clock; };
  NmeaUdpReceiver rx(cfg);
  send_to(rx.port(), std::string("\x00\xff garbage\r\n$GPRMC,1*00\r\n", 24));
  send_to(rx.port(), "$HEHDT,274.07,T*18\r\n" + format_nav_update(moving_fix()));
  std::size_t accepted = 0;
  for (int i = 0; i < 50 && rx.stats().datagrams < 2; ++i)
    accepted += rx.poll(std::chrono::milliseconds(100));
  EXPECT_EQ(accepted, 4u);
  const NmeaCounters c = rx.counters();
  EXPECT_EQ(c.refused_of(NmeaReject::BadCharacter), 1u);
  EXPECT_EQ(c.refused_of(NmeaReject::BadChecksum), 2u);
  EXPECT_EQ(c.accepted_total(), 4u);
  EXPECT_TRUE(rx.state(500.0).valid);
  // Nothing more arrives: five seconds later the state is stale.
  clock = 506.0;
  const OwnShipState s = rx.state_now();
  EXPECT_FALSE(s.valid);
  EXPECT_NE(s.warning.find("stale"), std::string::npos) << s.warning;
}

TEST(NmeaUdp, RefusesBadConfigurationClearly) {
  NmeaUdpConfig cfg;
  cfg.address = "not-an-address";
  EXPECT_THROW(NmeaUdpReceiver{cfg}, Error);
  cfg.address = "127.0.0.1";
  cfg.interface = "eth0";
  EXPECT_THROW(NmeaUdpReceiver{cfg}, Error);  // interface only for a multicast group
  cfg.interface.clear();
  cfg.port = 70000;
  EXPECT_THROW(NmeaUdpReceiver{cfg}, Error);
  // A port in use.
  cfg.port = test::free_udp_port();
  NmeaUdpReceiver first(cfg);
  EXPECT_THROW(NmeaUdpReceiver{cfg}, Error);
  // poll() on a threaded receiver is a programming error, refused.
  EXPECT_THROW(first.poll(std::chrono::milliseconds(0)), Error);
}

TEST(NmeaUdp, MulticastGroupOnLoopback) {
  NmeaUdpConfig cfg;
  cfg.address = "239.192.0.29";
  cfg.port = test::free_udp_port();
  cfg.interface = "127.0.0.1";
  std::unique_ptr<NmeaUdpReceiver> rx;
  try {
    rx = std::make_unique<NmeaUdpReceiver>(cfg);
  } catch (const Error& e) {
    GTEST_SKIP() << "no multicast on loopback here: " << e.what();
  }
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  in_addr lo{};
  lo.s_addr = htonl(INADDR_LOOPBACK);
  ::setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &lo, sizeof lo);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(uint16_t(rx->port()));
  ::inet_pton(AF_INET, cfg.address.c_str(), &sa.sin_addr);
  const std::string payload = format_nav_update(moving_fix());
  ::sendto(fd, payload.data(), payload.size(), 0, reinterpret_cast<sockaddr*>(&sa), sizeof sa);
  ::close(fd);
  if (!rx->wait_for_accepted(4, std::chrono::seconds(2)))
    GTEST_SKIP() << "multicast datagrams are not looped back on this host";
  EXPECT_TRUE(rx->state_now().valid);
}

}  // namespace
}  // namespace sweepline::nav
