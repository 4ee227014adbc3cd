#include "shapes.hpp"
//       ^^^^^^^^^^^^ reference imports shapes.hpp

#include <cmath>
//       ^^^^^^^ reference imports cmath
#include <numeric>
//       ^^^^^^^^^ reference imports numeric

namespace geo {
// ^^^^^^^^^^^^^^^ definition namespace geo [6:0-18:1]
namespace {
constexpr double kPi = 3.14159265358979;
}

double Circle::area() const { return kPi * std::pow(r_, 2); }
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function Circle::area [11:0-11:61]
//                                         ^^^^^^^^ reference calls std::pow (from Circle::area)

double total_area(const ShapeList& shapes) {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function geo.total_area [13:0-16:1]
    return std::accumulate(shapes.begin(), shapes.end(), 0.0,
//         ^^^^^^^^^^^^^^^ reference calls std::accumulate (from geo.total_area)
//                         ^^^^^^^^^^^^ reference calls shapes.begin (from geo.total_area)
//                                         ^^^^^^^^^^ reference calls shapes.end (from geo.total_area)
                           [](double sum, const auto& s) { return sum + s->area(); });
//                                                                      ^^^^^^^ reference calls s.area (from geo.total_area)
}

}  // namespace geo

int main() {
// ^^^^^^^^^^^^ definition function main [20:0-25:1]
    geo::ShapeList shapes;
    shapes.push_back(std::make_unique<geo::Circle>(2.0));
//  ^^^^^^^^^^^^^^^^ reference calls shapes.push_back (from main)
//                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference calls std::make_unique (from main)
    auto raw = R"(a "raw" string)";
    return geo::total_area(shapes) > 0 ? 0 : 1;
//         ^^^^^^^^^^^^^^^ reference calls geo::total_area (from main)
}
// ----- travsr snapshot: geo/shapes.cpp (cpp, phase A, status ok) -----
// node file <file> (shapes.cpp)
// skeleton Circle::area: "double Circle::area() const"
// skeleton geo.total_area: "double total_area(const ShapeList& shapes)"
// skeleton geo: "namespace geo"
// skeleton main: "int main()"
// edge contains <file> -> geo (confidence 1, phase-a)
// edge contains <file> -> main (confidence 1, phase-a)
// edge contains geo -> Circle::area (confidence 1, phase-a)
// edge contains geo -> geo.total_area (confidence 1, phase-a)
