#include "lib/learn/training_protocol.hpp"

#include "lib/base/choices.hpp"
#include "lib/base/error.hpp"

namespace mpg {
namespace {

constexpr Choice<TrainingProtocol> kProtocols[] = {
    {"certified", TrainingProtocol::certified},
    {"authors_lbfgs", TrainingProtocol::authors_lbfgs},
    {"authors_adadelta", TrainingProtocol::authors_adadelta},
};

}  // namespace

const std::vector<std::string>& training_protocol_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& choice : kProtocols) out.emplace_back(choice.name);
    return out;
  }();
  return names;
}

TrainingProtocol parse_training_protocol(const std::string& name, const std::string& who) {
  try {
    return parse_choice(name, kProtocols, "protocol");
  } catch (const Error& error) {
    throw Error(who + ": " + error.what());
  }
}

std::string to_string(TrainingProtocol protocol) { return choice_name(protocol, kProtocols); }

}  // namespace mpg
