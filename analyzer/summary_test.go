package analyzer_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/rules"
)

// answering is a project that knows something of every name it is asked
// about: a module class, a function that returns a graph and runs with
// grad disabled, a helper with a forward pass.
type answering struct{ asked int }

func (a *answering) Lookup(ref string, want analyzer.Want) *analyzer.Object {
	a.asked++
	site := &analyzer.Site{Path: "other.py", Line: 3, Text: "net(x)"}
	return &analyzer.Object{Kind: analyzer.ObjectFunction, Module: true, ReturnsGraph: true,
		Grad: analyzer.GradDisabled, GradKnown: true, Forward: site, EmptyCache: site}
}

func (a *answering) Star(name string) string { return "other." + name }

// partial is a project that knows something of one name in two, as
// answering does, and nothing of the others: what the rules work out
// then mixes answers that read the project with answers that do not.
type partial struct {
	answering
	asked int
}

func (p *partial) Lookup(ref string, want analyzer.Want) *analyzer.Object {
	p.asked++
	if len(ref)%2 == 0 {
		return nil
	}
	return p.answering.Lookup(ref, want)
}

func (p *partial) Star(name string) string {
	if len(name)%2 == 0 {
		return ""
	}
	return p.answering.Star(name)
}

// silent is a project that knows nothing of any name.
type silent struct{ asked int }

func (s *silent) Lookup(string, analyzer.Want) *analyzer.Object { s.asked++; return nil }
func (s *silent) Star(string) string                            { return "" }

// TestSummaryIgnoresFacts: a file's summary is its own, whatever its
// project answers while the file is linted, as Summarize gives it alone.
// Linting shares with the summary what it worked out without reading an
// answer of the project's, so projects that answer every question, none
// and one in two are tried on every fixture.
func TestSummaryIgnoresFacts(t *testing.T) {
	runner := analyzer.NewRunner(rules.Runnable(), rules.SyntaxError, rules.IOError)
	dir := filepath.Join("..", "testdata", "python")
	n, loud, quiet, half := 0, &answering{}, &silent{}, &partial{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		want := runner.Summarize(p, src)
		for _, facts := range []analyzer.Facts{nil, quiet, loud, half} {
			_, got := runner.Analyze(p, src, facts, true)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: with facts %T the summary is\n%+v\nwant\n%+v", p, facts, got, want)
			}
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 20 || loud.asked == 0 || quiet.asked == 0 || half.asked == 0 {
		t.Fatalf("%d files, %d, %d and %d questions: the fixtures did not exercise the facts", n, loud.asked, quiet.asked, half.asked)
	}
}

// TestPairs: PairsOf lists a map's keys in order, keeps nil apart from
// empty, and Get finds every key it lists and no other.
func TestPairs(t *testing.T) {
	m := map[string]string{"np": "numpy", "F": "torch.nn.functional", "net": "#Net", "_x": ".x"}
	rs := analyzer.PairsOf(m)
	if len(rs) != len(m) || !slices.IsSortedFunc(rs, func(a, b analyzer.Pair) int { return strings.Compare(a.Key, b.Key) }) {
		t.Fatalf("analyzer.PairsOf(%v) = %v", m, rs)
	}
	for name, want := range m {
		if got, ok := rs.Get(name); !ok || got != want {
			t.Errorf("Get(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"", "a", "nn", "z", "np2"} {
		if got, ok := rs.Get(name); ok {
			t.Errorf("Get(%q) = %q for a name not bound", name, got)
		}
	}
	if analyzer.PairsOf(nil) != nil || analyzer.PairsOf(map[string]string{}) == nil {
		t.Error("PairsOf does not keep nil apart from empty")
	}
}

// TestSummaryCallRefs: a file's summary names the callee of each call
// as the project resolves it: a method of a class a star import brings
// by that class (`?Net.eval`), of either class a name may be bound to,
// and nn.Module's own switch (`self.model.eval()`) not at all, where a
// method of the project's called by name alone (`*.eval`) would be.
func TestSummaryCallRefs(t *testing.T) {
	runner := analyzer.NewRunner(rules.Runnable(), rules.SyntaxError, rules.IOError)
	src := []byte(`from nets import *
import torch


class Wrapper(object):
    # self.model is a module its subclasses make.
    def set_mode(self, train):
        if train:
            self.model.train()
        else:
            self.model.eval()


def evaluate(wrapper, x, y):
    return wrapper.eval(x, y)


net = Net()
net.eval(x, y)
if flag:
    other = A()
else:
    other = B()
other.score(x)
`)
	s := runner.Summarize("script.py", src)
	var callees []string
	for _, c := range s.Calls {
		callees = append(callees, c.Callee)
	}
	for _, want := range []string{"?Net.eval", "?A.score", "?B.score", "*.eval"} {
		if !slices.Contains(callees, want) {
			t.Errorf("calls %v: missing %s", callees, want)
		}
	}
	n := 0
	for _, c := range s.Calls {
		if c.Callee == "*.eval" {
			n++
			if c.Caller != "evaluate" {
				t.Errorf("a call by name of eval summarized in %q, where only evaluate calls a project method by that name", c.Caller)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d calls of *.eval, want the one in evaluate: %v", n, callees)
	}
}
