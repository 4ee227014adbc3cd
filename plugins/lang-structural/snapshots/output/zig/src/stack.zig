const std = @import("std");
//                   ^^^ reference imports std
const mem = std.mem;
const Allocator = std.mem.Allocator;

/// A growable stack of items.
pub fn Stack(comptime T: type) type {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function Stack [6:0-24:1]
    return struct {
        const Self = @This();

        items: std.ArrayList(T),
//             ^^^^^^^^^^^^^ reference calls std.ArrayList (from Stack)

        pub fn init(allocator: Allocator) Self {
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Stack.init (to 14:9)
            return .{ .items = std.ArrayList(T).init(allocator) };
//                             ^^^^^^^^^^^^^^^^^^^^^ reference calls init (from Stack.init)
//                             ^^^^^^^^^^^^^ reference calls std.ArrayList (from Stack.init)
        }

        pub fn push(self: *Self, item: T) !void {
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Stack.push (to 18:9)
            try self.items.append(item);
//              ^^^^^^^^^^^^^^^^^ reference calls self.items.append (from Stack.push)
        }

        pub fn pop(self: *Self) ?T {
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Stack.pop (to 22:9)
            return self.items.popOrNull();
//                 ^^^^^^^^^^^^^^^^^^^^ reference calls self.items.popOrNull (from Stack.pop)
        }
    };
}

pub const Color = enum { red, green };
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition enum Color [26:0-26:38]

const Point = struct {
// ^^^^^^^^^^^^^^^^^^^^^^ definition struct Point [28:0-35:2]
    x: i32,
    y: i32,

    fn length(self: Point) f64 {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Point.length (to 34:5)
        return std.math.sqrt(@as(f64, @floatFromInt(self.x * self.x + self.y * self.y)));
//             ^^^^^^^^^^^^^ reference calls std.math.sqrt (from Point.length)
    }
};

test "push then pop" {
// ^^^^^^^^^^^^^^^^^^^^^^ definition function push then pop [37:0-41:1]
    var s = Stack(u8).init(std.testing.allocator);
//          ^^^^^^^^^^^^^^ reference calls init (from push then pop)
//          ^^^^^ reference calls Stack (from push then pop)
    try s.push(1);
//      ^^^^^^ reference calls s.push (from push then pop)
    try std.testing.expectEqual(@as(?u8, 1), s.pop());
//      ^^^^^^^^^^^^^^^^^^^^^^^ reference calls std.testing.expectEqual (from push then pop)
//                                           ^^^^^ reference calls s.pop (from push then pop)
}
// ----- travsr snapshot: zig/src/stack.zig (zig, phase A, status ok) -----
// node file <file> (stack.zig)
// skeleton Color: "pub const Color = enum { red, green };"
// skeleton Point.length: "fn length(self: Point) f64"
// skeleton Point: "const Point = struct {"
// skeleton Stack.init: "pub fn init(allocator: Allocator) Self"
// skeleton Stack.pop: "pub fn pop(self: *Self) ?T"
// skeleton Stack.push: "pub fn push(self: *Self, item: T) !void"
// skeleton Stack: "/// A growable stack of items.\npub fn Stack(comptime T: type) type"
// skeleton push then pop: "test \"push then pop\" {"
// edge contains <file> -> Color (confidence 1, phase-a)
// edge contains <file> -> Point (confidence 1, phase-a)
// edge contains <file> -> Stack (confidence 1, phase-a)
// edge contains <file> -> push then pop (confidence 1, phase-a)
// edge contains Point -> Point.length (confidence 1, phase-a)
// edge contains Stack -> Stack.init (confidence 1, phase-a)
// edge contains Stack -> Stack.pop (confidence 1, phase-a)
// edge contains Stack -> Stack.push (confidence 1, phase-a)
