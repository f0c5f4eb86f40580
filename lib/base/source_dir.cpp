#include "lib/base/source_dir.hpp"

namespace mpg {

std::string source_directory() { return MPG_SOURCE_DIR; }

}  // namespace mpg
