// The checkout this build was configured from: the default home of experiments/, datasets/ and
// ../shared/datasets. Compiled into one file only (lib/base/source_dir.cpp), so that every other
// object is the same in every checkout and ccache shares them between worktrees.
#pragma once

#include <string>

namespace mpg {

std::string source_directory();

}  // namespace mpg
