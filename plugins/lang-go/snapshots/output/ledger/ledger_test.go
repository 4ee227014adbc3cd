package ledger_test

import "testing"
//     ^^^^^^^^^ reference imports testing
import . "example.com/shop/ledger"
//       ^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports example.com/shop/ledger

type memStore map[string]*Account
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition type memStore [6:0-6:33]

func (m memStore) Load(name string) (*Account, error) { return m[name], nil }
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method memStore.Load [8:0-8:77]
func (m memStore) Save(a *Account) error             { m[a.Name] = a; return nil }
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method memStore.Save [9:0-9:82]

const raw = `multi
line`

func TestPost(t *testing.T) {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function TestPost [14:0-19:1]
	l := New(memStore{})
// ^^^ reference calls New (from TestPost) [15:6-15:9]
	if err := l.Post(Entry{}); err == nil {
// ^^^^^^ reference calls l.Post (from TestPost) [16:11-16:17]
		t.Fatal("zero amount accepted")
// ^^^^^^^ reference calls t.Fatal (from TestPost) [17:2-17:9]
	}
}
// ----- travsr snapshot: ledger/ledger_test.go (go, phase A, status ok) -----
// node file <file> (ledger_test.go)
// skeleton TestPost: "func TestPost(t *testing.T)"
// skeleton memStore.Load: "func (m memStore) Load(name string) (*Account, error)"
// skeleton memStore.Save: "func (m memStore) Save(a *Account) error"
// skeleton memStore: "type memStore map[string]*Account"
// edge contains <file> -> TestPost (confidence 1, phase-a)
// edge contains <file> -> memStore (confidence 1, phase-a)
// edge contains <file> -> memStore.Load (confidence 1, phase-a)
// edge contains <file> -> memStore.Save (confidence 1, phase-a)
