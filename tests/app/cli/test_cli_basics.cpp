// Runs the built executable the way a user does.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/run_command.hpp"

using sweepline::test::CommandResult;
using sweepline::test::run_sweepline;

TEST(Cli, HelpListsEverySubcommand) {
  CommandResult r = run_sweepline("--help");
  EXPECT_EQ(r.status, 0) << r.output;
  for (const char* sub : {"view", "dump", "sim", "label", "bench"})
    EXPECT_NE(r.output.find(sub), std::string::npos) << sub << " missing from\n" << r.output;
}

TEST(Cli, VersionPrintsTheVersion) {
  CommandResult r = run_sweepline("--version");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.output.find("sweepline 0."), std::string::npos) << r.output;
}

TEST(Cli, UnknownOptionExitsTwoWithAMessage) {
  CommandResult r = run_sweepline("--no-such-option");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("no-such-option"), std::string::npos) << r.output;
  CommandResult sub = run_sweepline("dump --bogus x");
  EXPECT_EQ(sub.status, 2) << sub.output;
}
