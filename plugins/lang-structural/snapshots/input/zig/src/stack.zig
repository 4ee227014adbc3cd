const std = @import("std");
const mem = std.mem;
const Allocator = std.mem.Allocator;

/// A growable stack of items.
pub fn Stack(comptime T: type) type {
    return struct {
        const Self = @This();

        items: std.ArrayList(T),

        pub fn init(allocator: Allocator) Self {
            return .{ .items = std.ArrayList(T).init(allocator) };
        }

        pub fn push(self: *Self, item: T) !void {
            try self.items.append(item);
        }

        pub fn pop(self: *Self) ?T {
            return self.items.popOrNull();
        }
    };
}

pub const Color = enum { red, green };

const Point = struct {
    x: i32,
    y: i32,

    fn length(self: Point) f64 {
        return std.math.sqrt(@as(f64, @floatFromInt(self.x * self.x + self.y * self.y)));
    }
};

test "push then pop" {
    var s = Stack(u8).init(std.testing.allocator);
    try s.push(1);
    try std.testing.expectEqual(@as(?u8, 1), s.pop());
}
