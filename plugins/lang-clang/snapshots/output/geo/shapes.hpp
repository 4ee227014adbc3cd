#pragma once
#include <memory>
//       ^^^^^^^^ reference imports memory
#include <string>
//       ^^^^^^^^ reference imports string
#include <vector>
//       ^^^^^^^^ reference imports vector

namespace geo {

class Shape {
public:
    virtual ~Shape() = default;
//         ^ diagnostic warning PARSE_ERRORS: 16 syntax errors (14 ERROR, 2 MISSING nodes); definitions in the broken region may be missing
//           ^^^^^ reference calls Shape
    virtual double area() const = 0;
    std::string name() const { return "shape"; }
//              ^^^^ reference calls name
};

template <typename T>
struct Point {
    T x, y;
};

class Circle : public Shape, private Named {
public:
    explicit Circle(double r) : r_(r) {}
//           ^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function r_
    double area() const override;

private:
    double r_;
};

using ShapeList = std::vector<std::unique_ptr<Shape>>;

double total_area(const ShapeList& shapes);

}  // namespace geo
// ----- travsr snapshot: geo/shapes.hpp (c, phase A, status ok) -----
// node file <file> (shapes.hpp)
// skeleton r_: "Circle(double r) : r_(r)"
// edge contains <file> -> r_ (confidence 1, phase-a)
