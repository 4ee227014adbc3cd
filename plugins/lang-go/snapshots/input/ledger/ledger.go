// Package ledger keeps double-entry accounts in memory.
package ledger

import (
	"errors"
	"fmt"
	stdsort "sort"
	"sync"

	"example.com/shop/internal/money"
)

// ErrUnbalanced is returned when debits and credits differ.
var ErrUnbalanced = errors.New("ledger: unbalanced entry")

// Account is one named balance.
type Account struct {
	Name    string
	balance money.Amount
}

// Store persists accounts.
type Store interface {
	Load(name string) (*Account, error)
	Save(a *Account) error
}

// AuditedStore is a Store that also keeps a journal.
type AuditedStore interface {
	Store
	Journal() []Entry
}

type Entry struct {
	Debit, Credit string
	Amount        money.Amount
}

type Ledger struct {
	mu    sync.Mutex
	store Store
}

// New returns an empty ledger backed by store.
func New(store Store) *Ledger {
	return &Ledger{store: store}
}

// Post applies an entry to both accounts.
func (l *Ledger) Post(e Entry) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e.Amount.IsZero() {
		return fmt.Errorf("post %s→%s: %w", e.Debit, e.Credit, ErrUnbalanced)
	}
	from, err := l.store.Load(e.Debit)
	if err != nil {
		return err
	}
	from.balance = from.balance.Sub(e.Amount)
	return l.store.Save(from)
}

func (a Account) String() string {
	return fmt.Sprintf("%s: %v", a.Name, a.balance)
}

// Names lists account names in order.
func Names[T ~string](accounts map[T]*Account) []T {
	out := make([]T, 0, len(accounts))
	for k := range accounts {
		out = append(out, k)
	}
	stdsort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
