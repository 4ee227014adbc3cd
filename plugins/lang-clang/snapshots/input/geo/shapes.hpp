#pragma once
#include <memory>
#include <string>
#include <vector>

namespace geo {

class Shape {
public:
    virtual ~Shape() = default;
    virtual double area() const = 0;
    std::string name() const { return "shape"; }
};

template <typename T>
struct Point {
    T x, y;
};

class Circle : public Shape, private Named {
public:
    explicit Circle(double r) : r_(r) {}
    double area() const override;

private:
    double r_;
};

using ShapeList = std::vector<std::unique_ptr<Shape>>;

double total_area(const ShapeList& shapes);

}  // namespace geo
