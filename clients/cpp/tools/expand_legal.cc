// croupier-expand-legal: reads one serialized croupier.v1.DecisionRequest on stdin and prints
// its legal actions as the kit expands them (expand_legal_actions), one line per action: the id,
// a tab, the label, a tab and the typed fields' chip amount (0 when there is none). The tests
// compare this with the Python SDK's expansion of the same request.
#include <iostream>
#include <iterator>
#include <string>

#include "croupier/bot.h"

namespace {

// The typed fields' chip amount: `chip.amount` of the set entry of LegalAction.detail, read by
// name from the descriptors (no per-game line); 0 when there is none.
uint32_t chip_amount(const croupier::v1::LegalAction& action) {
  const auto* reflection = action.GetReflection();
  const auto* detail_field = reflection->GetOneofFieldDescriptor(
      action, croupier::v1::LegalAction::descriptor()->FindOneofByName("detail"));
  if (detail_field == nullptr || detail_field->message_type() == nullptr) return 0;
  const auto& detail = reflection->GetMessage(action, detail_field);
  const auto* chip_field = detail.GetDescriptor()->FindFieldByName("chip");
  if (chip_field == nullptr || chip_field->message_type() == nullptr) return 0;
  const auto& chip = detail.GetReflection()->GetMessage(detail, chip_field);
  const auto* amount = chip.GetDescriptor()->FindFieldByName("amount");
  using google::protobuf::FieldDescriptor;
  if (amount == nullptr || amount->cpp_type() != FieldDescriptor::CPPTYPE_UINT32) return 0;
  return chip.GetReflection()->GetUInt32(chip, amount);
}

}  // namespace

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
    const uint32_t amount = chip_amount(a);
    if (ids[i] != a.id()) return 1;
    std::cout << a.id() << '\t' << a.label() << '\t' << amount << '\n';
  }
  return 0;
}
