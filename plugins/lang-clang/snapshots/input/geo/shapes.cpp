#include "shapes.hpp"

#include <cmath>
#include <numeric>

namespace geo {
namespace {
constexpr double kPi = 3.14159265358979;
}

double Circle::area() const { return kPi * std::pow(r_, 2); }

double total_area(const ShapeList& shapes) {
    return std::accumulate(shapes.begin(), shapes.end(), 0.0,
                           [](double sum, const auto& s) { return sum + s->area(); });
}

}  // namespace geo

int main() {
    geo::ShapeList shapes;
    shapes.push_back(std::make_unique<geo::Circle>(2.0));
    auto raw = R"(a "raw" string)";
    return geo::total_area(shapes) > 0 ? 0 : 1;
}
