#include "app/cli/default_command.hpp"

namespace sweepline::cli {

namespace {

// The program's own option named by `token` (--name, --name=value, -x), or null.
const CLI::Option* own_option(const CLI::App& app, const std::string& token) {
  if (token.size() < 2 || token[0] != '-') return nullptr;
  std::string name = token;
  if (const size_t eq = name.find('='); eq != std::string::npos) name.resize(eq);
  for (const CLI::Option* o : app.get_options())
    if (o->check_name(name)) return o;
  return nullptr;
}

}  // namespace

std::vector<std::string> with_default_subcommand(const CLI::App& app,
                                                 const std::vector<std::string>& args,
                                                 const std::string& name) {
  // A default that checks nothing (the view of a build without the GUI takes any argument)
  // would swallow a mistyped option: then the options stay the program's, refused as such.
  const CLI::App* def = nullptr;
  for (const CLI::App* sub : app.get_subcommands({}))
    if (sub->check_name(name)) def = sub;
  if (!def || def->get_allow_extras()) return args;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") break;
    const CLI::Option* o = own_option(app, a);
    if (!o) {
      for (const CLI::App* sub : app.get_subcommands({}))
        if (sub->check_name(a)) return args;  // a subcommand is named
      std::vector<std::string> out(args.begin(), args.begin() + std::ptrdiff_t(i));
      out.push_back(name);
      out.insert(out.end(), args.begin() + std::ptrdiff_t(i), args.end());
      return out;
    }
    // --help and --version answer at once, whatever follows.
    if (o->get_items_expected_min() == 0) {
      if (o == app.get_help_ptr() || o->check_name("--version")) return args;
      continue;
    }
    if (a.find('=') == std::string::npos) ++i;  // its value is the next argument
  }
  return args;
}

}  // namespace sweepline::cli
