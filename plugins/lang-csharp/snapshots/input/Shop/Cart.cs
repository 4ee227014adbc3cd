using System;
using System.Collections.Generic;
using System.Linq;
using Json = System.Text.Json.JsonSerializer;

namespace Shop.Checkout
{
    /// <summary>A shopping cart.</summary>
    public sealed class Cart : EntityBase, IEnumerable<CartItem>, IDisposable
    {
        private readonly List<CartItem> _items = new();

        public Cart(Guid id) : base(id) { }

        public decimal Total => _items.Sum(i => i.Price * i.Quantity);

        public event EventHandler? Changed;

        public void Add(CartItem item)
        {
            _items.Add(item);
            Changed?.Invoke(this, EventArgs.Empty);
            Console.WriteLine($"added {item.Sku}");
        }

        public string ToJson() => Json.Serialize(_items);

        public IEnumerator<CartItem> GetEnumerator() => _items.GetEnumerator();

        System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() => GetEnumerator();

        public void Dispose() => _items.Clear();
    }

    public record CartItem(string Sku, decimal Price, int Quantity);

    public interface IDiscount
    {
        decimal Apply(Cart cart);
    }

    public struct Money { public decimal Amount; }

    public enum Currency { Eur, Usd }

    public delegate void CartChanged(Cart cart);
}
