#pragma once
#include <memory>
//       ^^^^^^^^ reference imports memory
#include <string>
//       ^^^^^^^^ reference imports string
#include <vector>
//       ^^^^^^^^ reference imports vector

namespace geo {
// ^^^^^^^^^^^^^^^ definition namespace geo [6:0-33:1]

class Shape {
// ^^^^^^^^^^^^^ definition class geo.Shape [8:0-13:1]
public:
    virtual ~Shape() = default;
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method geo.Shape.~Shape
    virtual double area() const = 0;
    std::string name() const { return "shape"; }
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method geo.Shape.name
};

template <typename T>
struct Point {
// ^^^^^^^^^^^^^^ definition struct geo.Point [16:0-18:1]
    T x, y;
};

class Circle : public Shape, private Named {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class geo.Circle [20:0-27:1]
//                    ^^^^^ reference inherits Shape (from geo.Circle)
//                                   ^^^^^ reference inherits Named (from geo.Circle)
public:
    explicit Circle(double r) : r_(r) {}
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method geo.Circle.Circle
    double area() const override;

private:
    double r_;
};

using ShapeList = std::vector<std::unique_ptr<Shape>>;
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition type geo.ShapeList [29:0-29:54]

double total_area(const ShapeList& shapes);

}  // namespace geo
// ----- travsr snapshot: cpp/geo/shapes.hpp (bash, phase A, status ok) -----
// node file <file> (shapes.hpp)
// skeleton geo.Circle.Circle: "explicit Circle(double r) : r_(r)"
// skeleton geo.Circle: "class Circle : public Shape, private Named"
// skeleton geo.Point: "struct Point"
// skeleton geo.Shape.name: "std::string name() const"
// skeleton geo.Shape.~Shape: "virtual ~Shape() = default;"
// skeleton geo.Shape: "class Shape"
// skeleton geo.ShapeList: "using ShapeList = std::vector<std::unique_ptr<Shape>>;"
// skeleton geo: "namespace geo"
// edge contains <file> -> geo (confidence 1, phase-a)
// edge contains geo -> geo.Circle (confidence 1, phase-a)
// edge contains geo -> geo.Point (confidence 1, phase-a)
// edge contains geo -> geo.Shape (confidence 1, phase-a)
// edge contains geo -> geo.ShapeList (confidence 1, phase-a)
// edge contains geo.Circle -> geo.Circle.Circle (confidence 1, phase-a)
// edge contains geo.Shape -> geo.Shape.name (confidence 1, phase-a)
// edge contains geo.Shape -> geo.Shape.~Shape (confidence 1, phase-a)
