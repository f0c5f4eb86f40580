// A visitor made of lambdas, one per alternative of a std::variant:
//     std::visit(Overloaded{[](const A&) {...}, [](const auto&) {...}}, value)
#pragma once

namespace mpg {

template <class... Visitors>
struct Overloaded : Visitors... {
  using Visitors::operator()...;
};
template <class... Visitors>
Overloaded(Visitors...) -> Overloaded<Visitors...>;

}  // namespace mpg
