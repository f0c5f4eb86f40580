// Status texts of liblbfgs's return codes (lib/learn/optimizer.cpp).
#pragma once

#include <string>

namespace mpg {

std::string lbfgs_status_text(int status);

}  // namespace mpg
