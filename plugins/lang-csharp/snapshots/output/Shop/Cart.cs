using System;
//    ^^^^^^ reference imports System
using System.Collections.Generic;
//    ^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports System.Collections.Generic
using System.Linq;
//    ^^^^^^^^^^^ reference imports System.Linq
using Json = System.Text.Json.JsonSerializer;
//           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports System.Text.Json.JsonSerializer

namespace Shop.Checkout
// ^^^^^^^^^^^^^^^^^^^^^^^ definition namespace Shop.Checkout [6:0-47:1]
{
    /// <summary>A shopping cart.</summary>
    public sealed class Cart : EntityBase, IEnumerable<CartItem>, IDisposable
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class Shop.Checkout.Cart (to 33:5)
//                             ^^^^^^^^^^ reference inherits EntityBase (from Shop.Checkout.Cart)
//                                         ^^^^^^^^^^^^^^^^^^^^^ reference inherits IEnumerable (from Shop.Checkout.Cart)
//                                                                ^^^^^^^^^^^ reference inherits IDisposable (from Shop.Checkout.Cart)
    {
        private readonly List<CartItem> _items = new();

        public Cart(Guid id) : base(id) { }
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition constructor Shop.Checkout.Cart.Cart

        public decimal Total => _items.Sum(i => i.Price * i.Quantity);
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition property Shop.Checkout.Cart.Total
//                              ^^^^^^^^^^ reference calls _items.Sum (from Shop.Checkout.Cart.Total)

        public event EventHandler? Changed;

        public void Add(CartItem item)
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Shop.Checkout.Cart.Add (to 24:9)
        {
            _items.Add(item);
//          ^^^^^^^^^^ reference calls _items.Add (from Shop.Checkout.Cart.Add)
            Changed?.Invoke(this, EventArgs.Empty);
//                   ^^^^^^ reference calls Invoke (from Shop.Checkout.Cart.Add)
            Console.WriteLine($"added {item.Sku}");
//          ^^^^^^^^^^^^^^^^^ reference calls Console.WriteLine (from Shop.Checkout.Cart.Add)
        }

        public string ToJson() => Json.Serialize(_items);
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Shop.Checkout.Cart.ToJson
//                                ^^^^^^^^^^^^^^ reference calls Json.Serialize (from Shop.Checkout.Cart.ToJson)

        public IEnumerator<CartItem> GetEnumerator() => _items.GetEnumerator();
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Shop.Checkout.Cart.GetEnumerator
//                                                      ^^^^^^^^^^^^^^^^^^^^ reference calls _items.GetEnumerator (from Shop.Checkout.Cart.GetEnumerator)

        System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() => GetEnumerator();
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Shop.Checkout.Cart.GetEnumerator@2
//                                                                                       ^^^^^^^^^^^^^ reference calls GetEnumerator (from Shop.Checkout.Cart.GetEnumerator@2)

        public void Dispose() => _items.Clear();
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Shop.Checkout.Cart.Dispose
//                               ^^^^^^^^^^^^ reference calls _items.Clear (from Shop.Checkout.Cart.Dispose)
    }

    public record CartItem(string Sku, decimal Price, int Quantity);
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class Shop.Checkout.CartItem

    public interface IDiscount
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^ definition interface Shop.Checkout.IDiscount (to 40:5)
    {
        decimal Apply(Cart cart);
//      ^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Shop.Checkout.IDiscount.Apply
    }

    public struct Money { public decimal Amount; }
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition struct Shop.Checkout.Money

    public enum Currency { Eur, Usd }
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition enum Shop.Checkout.Currency

    public delegate void CartChanged(Cart cart);
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition type Shop.Checkout.CartChanged
}
// ----- travsr snapshot: Shop/Cart.cs (csharp, phase A, status ok) -----
// node file <file> (Cart.cs)
// skeleton Shop.Checkout.Cart.Add: "public void Add(CartItem item)"
// skeleton Shop.Checkout.Cart.Cart: "public Cart(Guid id) : base(id)"
// skeleton Shop.Checkout.Cart.Dispose: "public void Dispose()"
// skeleton Shop.Checkout.Cart.GetEnumerator: "public IEnumerator<CartItem> GetEnumerator()"
// skeleton Shop.Checkout.Cart.GetEnumerator@2: "System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator()"
// skeleton Shop.Checkout.Cart.ToJson: "public string ToJson()"
// skeleton Shop.Checkout.Cart.Total: "public decimal Total => _items.Sum(i => i.Price * i.Quantity);"
// skeleton Shop.Checkout.Cart: "/// <summary>A shopping cart.</summary>\npublic sealed class Cart : EntityBase, IEnumerable<CartItem>, IDisposable"
// skeleton Shop.Checkout.CartChanged: "public delegate void CartChanged(Cart cart);"
// skeleton Shop.Checkout.CartItem: "public record CartItem(string Sku, decimal Price, int Quantity)"
// skeleton Shop.Checkout.Currency: "public enum Currency"
// skeleton Shop.Checkout.IDiscount.Apply: "decimal Apply(Cart cart);"
// skeleton Shop.Checkout.IDiscount: "public interface IDiscount"
// skeleton Shop.Checkout.Money: "public struct Money"
// skeleton Shop.Checkout: "namespace Shop.Checkout"
// edge contains <file> -> Shop.Checkout (confidence 1, phase-a)
// edge contains Shop.Checkout -> Shop.Checkout.Cart (confidence 1, phase-a)
// edge contains Shop.Checkout -> Shop.Checkout.CartChanged (confidence 1, phase-a)
// edge contains Shop.Checkout -> Shop.Checkout.CartItem (confidence 1, phase-a)
// edge contains Shop.Checkout -> Shop.Checkout.Currency (confidence 1, phase-a)
// edge contains Shop.Checkout -> Shop.Checkout.IDiscount (confidence 1, phase-a)
// edge contains Shop.Checkout -> Shop.Checkout.Money (confidence 1, phase-a)
// edge contains Shop.Checkout.Cart -> Shop.Checkout.Cart.Add (confidence 1, phase-a)
// edge contains Shop.Checkout.Cart -> Shop.Checkout.Cart.Cart (confidence 1, phase-a)
// edge contains Shop.Checkout.Cart -> Shop.Checkout.Cart.Dispose (confidence 1, phase-a)
// edge contains Shop.Checkout.Cart -> Shop.Checkout.Cart.GetEnumerator (confidence 1, phase-a)
// edge contains Shop.Checkout.Cart -> Shop.Checkout.Cart.GetEnumerator@2 (confidence 1, phase-a)
// edge contains Shop.Checkout.Cart -> Shop.Checkout.Cart.ToJson (confidence 1, phase-a)
// edge contains Shop.Checkout.Cart -> Shop.Checkout.Cart.Total (confidence 1, phase-a)
// edge contains Shop.Checkout.IDiscount -> Shop.Checkout.IDiscount.Apply (confidence 1, phase-a)
