// croupier-legal-runs: answers the kit's range helpers (legal_runs, is_legal, id_for_amount) for
// decisions the tests send, so that they can be checked against the arbiter's own rules. Reads
// records of three lines on stdin: a serialized croupier.v1.DecisionRequest in hex, the ids to
// ask is_legal about and the amounts to ask id_for_amount about (both separated by spaces). For
// each record it prints five lines: the runs (`first,count,step` or
// `first,count,step,lowest,highest,amount_step`, separated by spaces), is_legal of each id (a
// string of 0 and 1), then id_for_amount of each amount for kind "", "Bet" and "Raise" (the id
// or `-` when the optional is empty, separated by spaces).
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "croupier/bot.h"

namespace {

bool from_hex(const std::string& hex, std::string* out) {
  if (hex.size() % 2 != 0) return false;
  out->clear();
  for (size_t i = 0; i < hex.size(); i += 2) {
    const std::string pair = hex.substr(i, 2);
    char* end = nullptr;
    const long byte = std::strtol(pair.c_str(), &end, 16);
    if (end != pair.c_str() + 2) return false;
    out->push_back(static_cast<char>(byte));
  }
  return true;
}

std::vector<uint64_t> numbers(const std::string& line) {
  std::istringstream in(line);
  std::vector<uint64_t> out;
  uint64_t value = 0;
  while (in >> value) out.push_back(value);
  return out;
}

}  // namespace

int main() {
  std::string hex, ids_line, amounts_line;
  while (std::getline(std::cin, hex) && std::getline(std::cin, ids_line) &&
         std::getline(std::cin, amounts_line)) {
    std::string data;
    croupier::v1::DecisionRequest decision;
    if (!from_hex(hex, &data) || !decision.ParseFromString(data)) {
      std::cerr << "croupier-legal-runs: a record is not a DecisionRequest" << std::endl;
      return 2;
    }
    const char* sep = "";
    for (const auto& run : croupier::legal_runs(decision)) {
      std::cout << sep << run.first << ',' << run.count << ',' << run.step;
      if (run.amounts) {
        std::cout << ',' << run.amounts->lowest << ',' << run.amounts->highest << ','
                  << run.amounts->step;
      }
      sep = " ";
    }
    std::cout << '\n';
    for (const uint64_t id : numbers(ids_line)) std::cout << croupier::is_legal(decision, id);
    std::cout << '\n';
    const std::vector<uint64_t> amounts = numbers(amounts_line);
    for (const char* kind : {"", "Bet", "Raise"}) {
      sep = "";
      for (const uint64_t amount : amounts) {
        const auto id = croupier::id_for_amount(decision, static_cast<uint32_t>(amount), kind);
        std::cout << sep;
        if (id) {
          std::cout << *id;
        } else {
          std::cout << '-';
        }
        sep = " ";
      }
      std::cout << '\n';
    }
  }
  return 0;
}
