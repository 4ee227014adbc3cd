package ledger_test

import "testing"
import . "example.com/shop/ledger"

type memStore map[string]*Account

func (m memStore) Load(name string) (*Account, error) { return m[name], nil }
func (m memStore) Save(a *Account) error             { m[a.Name] = a; return nil }

const raw = `multi
line`

func TestPost(t *testing.T) {
	l := New(memStore{})
	if err := l.Post(Entry{}); err == nil {
		t.Fatal("zero amount accepted")
	}
}
