package analyzer

import "testing"

// graphMaker is a project whose lib.make returns a graph.
type graphMaker struct{}

func (graphMaker) Lookup(ref string, want Want) *Object {
	if ref != "lib.make" {
		return nil
	}
	return &Object{Kind: ObjectFunction, ReturnsGraph: true, Site: Site{Path: "lib.py", Line: 1, Text: "def make(x)"}}
}

func (graphMaker) Star(string) string { return "" }

// TestFactsDroppedWithWhatReadThem: once the facts are taken away, an
// answer that read one is worked out again, and so is one worked out
// from a memoized answer that read one; an answer that read none is
// kept.
func TestFactsDroppedWithWhatReadThem(t *testing.T) {
	m := model(t, `from lib import make
import torch

net = torch.nn.Linear(3, 3)

def f(x):
    y = make(x)
    z = y * 2
    w = net(x) * 2
    return z
`)
	f := m.File
	made := find(t, f, KindCall, "make(x)", 0)
	scaled := find(t, f, KindBinaryOperator, "y * 2", 0)
	own := find(t, f, KindBinaryOperator, "net(x) * 2", 0)
	m.SetFacts(graphMaker{})
	// In this order: `y * 2` reads the memoized answer of `make(x)`.
	if !m.CarriesGraph(made) || !m.CarriesGraph(scaled) || !m.CarriesGraph(own) {
		t.Fatal("with the project's facts, make(x), y * 2 and the module's output times two should carry a graph")
	}
	if m.carries[own]&carryTainted != 0 {
		t.Error("the module's output times two read no answer of the project, yet is marked")
	}
	m.SetFacts(nil)
	if m.CarriesGraph(made) || m.CarriesGraph(scaled) {
		t.Error("without the project's facts, make(x) and y * 2 still carry a graph: answers that read the facts were kept")
	}
	if s, ok := m.carries[own]; !ok || s != carryYes {
		t.Errorf("the module's output times two, which read no answer of the project, was not kept (%v, %v)", s, ok)
	}
}

// TestMemoHitCarriesTheMark: a memoized answer computed from another
// memoized answer that read the project's facts is marked as reading
// them, though it asked the project nothing itself.
func TestMemoHitCarriesTheMark(t *testing.T) {
	m := model(t, "from lib import make\n")
	m.SetFacts(graphMaker{})
	inner := func() any { return m.lookup("lib.make", WantReturns) != nil }
	own := m.Memo("own", func() any { return true })
	if !m.Memo("inner", inner).(bool) || !own.(bool) {
		t.Fatal("the project's answer about lib.make was not read")
	}
	outer := m.Memo("outer", func() any { return m.Memo("inner", inner).(bool) && m.Memo("own", nil).(bool) })
	if !outer.(bool) {
		t.Fatal("outer did not read inner's memoized answer")
	}
	m.SetFacts(nil)
	for _, k := range []string{"inner", "outer"} {
		if _, kept := m.memo[k]; kept {
			t.Errorf("%s rests on the project's answer, yet was kept without the facts", k)
		}
	}
	if _, kept := m.memo["own"]; !kept {
		t.Error("own read nothing of the project, yet was dropped")
	}
	if m.Memo("outer", func() any { return m.Memo("inner", inner).(bool) }).(bool) {
		t.Error("outer worked out again without the facts still finds lib.make")
	}
}
