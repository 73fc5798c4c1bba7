#pragma once
// One table of {value, name} pairs per enum gives both directions of the string conversion, so
// a new enumerator cannot be printable but unparseable (or the error's list of names stale).
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/check.hpp"

namespace sweepline {

template <class E>
struct NameEntry {
  E value;
  const char* name;
};

template <class E, std::size_t N>
using NameTable = std::array<NameEntry<E>, N>;

// The name of `value`, or "?" when the table lacks it.
template <class E, std::size_t N>
constexpr const char* name_of(const NameTable<E, N>& table, E value) {
  for (const auto& e : table)
    if (e.value == value) return e.name;
  return "?";
}

// The names in table order.
template <class E, std::size_t N>
std::vector<std::string> names_of(const NameTable<E, N>& table) {
  std::vector<std::string> names;
  names.reserve(N);
  for (const auto& e : table) names.emplace_back(e.name);
  return names;
}

// The names joined by ", " for error messages.
template <class E, std::size_t N>
std::string joined_names(const NameTable<E, N>& table) {
  std::string s;
  for (const auto& e : table) s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s;
}

// The value named `name`; otherwise throws sweepline::Error
// "<what> '<name>' (<name1>, <name2>, ...)".
template <class E, std::size_t N>
E value_of(const NameTable<E, N>& table, std::string_view name, const std::string& what) {
  for (const auto& e : table)
    if (name == e.name) return e.value;
  throw Error(what + " '" + std::string(name) + "' (" + joined_names(table) + ")");
}

}  // namespace sweepline
