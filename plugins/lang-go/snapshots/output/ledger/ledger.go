// Package ledger keeps double-entry accounts in memory.
package ledger

import (
	"errors"
// ^^^^^^^^ reference imports errors [5:1-5:9]
	"fmt"
// ^^^^^ reference imports fmt [6:1-6:6]
	stdsort "sort"
// ^^^^^^ reference imports sort [7:9-7:15]
	"sync"
// ^^^^^^ reference imports sync [8:1-8:7]

	"example.com/shop/internal/money"
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports example.com/shop/internal/money [10:1-10:34]
)

// ErrUnbalanced is returned when debits and credits differ.
var ErrUnbalanced = errors.New("ledger: unbalanced entry")
//                  ^^^^^^^^^^ reference calls errors.New

// Account is one named balance.
type Account struct {
// ^^^^^^^^^^^^^^^^^^^^^ definition struct Account [17:0-20:1]
	Name    string
	balance money.Amount
}

// Store persists accounts.
type Store interface {
// ^^^^^^^^^^^^^^^^^^^^^^ definition interface Store [23:0-26:1]
	Load(name string) (*Account, error)
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Store.Load [24:1-24:36]
	Save(a *Account) error
// ^^^^^^^^^^^^^^^^^^^^^^ definition method Store.Save [25:1-25:23]
}

// AuditedStore is a Store that also keeps a journal.
type AuditedStore interface {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition interface AuditedStore [29:0-32:1]
	Store
// ^^^^^ reference inherits Store (from AuditedStore) [30:1-30:6]
	Journal() []Entry
// ^^^^^^^^^^^^^^^^^ definition method AuditedStore.Journal [31:1-31:18]
}

type Entry struct {
// ^^^^^^^^^^^^^^^^^^^ definition struct Entry [34:0-37:1]
	Debit, Credit string
	Amount        money.Amount
}

type Ledger struct {
// ^^^^^^^^^^^^^^^^^^^^ definition struct Ledger [39:0-42:1]
	mu    sync.Mutex
	store Store
}

// New returns an empty ledger backed by store.
func New(store Store) *Ledger {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function New [45:0-47:1]
	return &Ledger{store: store}
}

// Post applies an entry to both accounts.
func (l *Ledger) Post(e Entry) error {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Ledger.Post [50:0-62:1]
	l.mu.Lock()
// ^^^^^^^^^ reference calls l.mu.Lock (from Ledger.Post) [51:1-51:10]
	defer l.mu.Unlock()
// ^^^^^^^^^^^ reference calls l.mu.Unlock (from Ledger.Post) [52:7-52:18]
	if e.Amount.IsZero() {
// ^^^^^^^^^^^^^^^ reference calls e.Amount.IsZero (from Ledger.Post) [53:4-53:19]
		return fmt.Errorf("post %s→%s: %w", e.Debit, e.Credit, ErrUnbalanced)
// ^^^^^^^^^^ reference calls fmt.Errorf (from Ledger.Post) [54:9-54:19]
	}
	from, err := l.store.Load(e.Debit)
// ^^^^^^^^^^^^ reference calls l.store.Load (from Ledger.Post) [56:14-56:26]
	if err != nil {
		return err
	}
	from.balance = from.balance.Sub(e.Amount)
// ^^^^^^^^^^^^^^^^ reference calls from.balance.Sub (from Ledger.Post) [60:16-60:32]
	return l.store.Save(from)
// ^^^^^^^^^^^^ reference calls l.store.Save (from Ledger.Post) [61:8-61:20]
}

func (a Account) String() string {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Account.String [64:0-66:1]
	return fmt.Sprintf("%s: %v", a.Name, a.balance)
// ^^^^^^^^^^^ reference calls fmt.Sprintf (from Account.String) [65:8-65:19]
}

// Names lists account names in order.
func Names[T ~string](accounts map[T]*Account) []T {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function Names [69:0-76:1]
	out := make([]T, 0, len(accounts))
// ^^^^ reference calls make (from Names) [70:8-70:12]
// ^^^ reference calls len (from Names) [70:21-70:24]
	for k := range accounts {
		out = append(out, k)
// ^^^^^^ reference calls append (from Names) [72:8-72:14]
	}
	stdsort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
// ^^^^^^^^^^^^^ reference calls stdsort.Slice (from Names) [74:1-74:14]
	return out
}
// ----- travsr snapshot: ledger/ledger.go (go, phase A, status ok) -----
// node file <file> (ledger.go)
// skeleton Account.String: "func (a Account) String() string"
// skeleton Account: "// Account is one named balance.\ntype Account struct {"
// skeleton AuditedStore.Journal: "Journal() []Entry"
// skeleton AuditedStore: "// AuditedStore is a Store that also keeps a journal.\ntype AuditedStore interface {"
// skeleton Entry: "type Entry struct {"
// skeleton Ledger.Post: "// Post applies an entry to both accounts.\nfunc (l *Ledger) Post(e Entry) error"
// skeleton Ledger: "type Ledger struct {"
// skeleton Names: "// Names lists account names in order.\nfunc Names[T ~string](accounts map[T]*Account) []T"
// skeleton New: "// New returns an empty ledger backed by store.\nfunc New(store Store) *Ledger"
// skeleton Store.Load: "Load(name string) (*Account, error)"
// skeleton Store.Save: "Save(a *Account) error"
// skeleton Store: "// Store persists accounts.\ntype Store interface {"
// edge contains <file> -> Account (confidence 1, phase-a)
// edge contains <file> -> Account.String (confidence 1, phase-a)
// edge contains <file> -> AuditedStore (confidence 1, phase-a)
// edge contains <file> -> Entry (confidence 1, phase-a)
// edge contains <file> -> Ledger (confidence 1, phase-a)
// edge contains <file> -> Ledger.Post (confidence 1, phase-a)
// edge contains <file> -> Names (confidence 1, phase-a)
// edge contains <file> -> New (confidence 1, phase-a)
// edge contains <file> -> Store (confidence 1, phase-a)
// edge contains AuditedStore -> AuditedStore.Journal (confidence 1, phase-a)
// edge contains Store -> Store.Load (confidence 1, phase-a)
// edge contains Store -> Store.Save (confidence 1, phase-a)
