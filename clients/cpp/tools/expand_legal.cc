// croupier-expand-legal: reads one serialized croupier.v1.DecisionRequest on stdin and prints
// its legal actions as the kit expands them (expand_legal_actions), one line per action: the id,
// a tab, the label, a tab and the typed fields' chip amount (0 when there is none). The tests
// compare this with the Python SDK's expansion of the same request.
#include <iostream>
#include <iterator>
#include <string>

#include "croupier/bot.h"

int main() {
  std::string data((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  croupier::v1::DecisionRequest decision;
  if (!decision.ParseFromString(data)) {
    std::cerr << "croupier-expand-legal: stdin is not a DecisionRequest" << std::endl;
    return 2;
  }
  const auto ids = croupier::legal_ids(decision);
  const auto actions = croupier::expand_legal_actions(decision);
  if (ids.size() != actions.size()) {
    std::cerr << "croupier-expand-legal: legal_ids and expand_legal_actions disagree" << std::endl;
    return 1;
  }
  for (size_t i = 0; i < actions.size(); ++i) {
    const auto& a = actions[i];
    uint32_t amount = a.has_felduz() ? a.felduz().chip().amount()
                      : a.has_scauver() ? a.scauver().chip().amount() : 0;
    if (ids[i] != a.id()) return 1;
    std::cout << a.id() << '\t' << a.label() << '\t' << amount << '\n';
  }
  return 0;
}
