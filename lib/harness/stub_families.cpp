#include "lib/harness/family.hpp"
#include "lib/base/error.hpp"
namespace mpg::harness {
namespace {
class Stub : public Family {
 public:
  explicit Stub(std::string n) : n_(std::move(n)) {}
  std::string name() const override { return n_; }
  std::string summary() const override { return "not ported"; }
  std::vector<SpecKey> keys() const override { return {}; }
  const std::vector<MethodKind>& methods() const override { static std::vector<MethodKind> m; return m; }
  void validate(const nlohmann::json&, const SpecValidator& v) const override { v.fail("task", "not ported yet"); }
  std::unique_ptr<FamilyRun> prepare(const nlohmann::json&) const override { throw Error("not ported"); }
 private:
  std::string n_;
};
}
const Family& ranking_family() { static Stub s("ranking"); return s; }
}
