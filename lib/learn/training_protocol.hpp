// The names of the training protocols (lib/learn/protocol.hpp has what each one runs). Apart so
// that reading a spec (lib/harness/spec.cpp) does not reach the games and optimizers: every
// family's cache stamp holds the harness engine's include closure (lib/harness/cache.hpp), and a
// family that plays no game keeps its cells when the game code changes.
#pragma once

#include <string>
#include <vector>

namespace mpg {

enum class TrainingProtocol { certified, authors_lbfgs, authors_adadelta };

// "certified", "authors_lbfgs", "authors_adadelta", in that order.
const std::vector<std::string>& training_protocol_names();
// Throws mpg::Error "<who>: unknown protocol '<name>' (expected certified, authors_lbfgs or
// authors_adadelta)".
TrainingProtocol parse_training_protocol(const std::string& name, const std::string& who);
std::string to_string(TrainingProtocol protocol);

}  // namespace mpg
