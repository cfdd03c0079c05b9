package project

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/torchlint/torchlint/analyzer"
)

// graphOf summarizes every file of a fixture project and solves it.
func graphOf(t *testing.T, name string) (*Graph, string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join(projectsDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return graphAt(t, root), root
}

// graphAt summarizes every file of the project at root and solves it.
func graphAt(t *testing.T, root string) *Graph {
	t.Helper()
	files, err := projectFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	r := newLinter(t).Runner
	g := NewGraph(root, nil)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g.Add(f, r.Summarize(f, src))
	}
	g.Solve()
	return g
}

const all = analyzer.WantModule | analyzer.WantReturns | analyzer.WantGrad | analyzer.WantHelper | analyzer.WantCallers

func TestGraphResolvesAndSolves(t *testing.T) {
	g, root := graphOf(t, "classic")
	train := g.Facts(filepath.Join(root, "train.py"))
	cases := []struct {
		ref   string
		check func(o *analyzer.Object) bool
		what  string
	}{
		{"models.Classifier", func(o *analyzer.Object) bool {
			return o != nil && o.Kind == analyzer.ObjectClass && o.Module && o.Site.Path == "models/classifier.py"
		}, "a module through Base, in another file, re-exported by models/__init__.py"},
		{"models.FocalLoss", func(o *analyzer.Object) bool { return o != nil && o.Module },
			"a module brought in by a star import that __all__ lists"},
		{"models._Hidden", func(o *analyzer.Object) bool { return o == nil }, "left out of the star import by __all__"},
		{"models.classifier.Tokenizer", func(o *analyzer.Object) bool { return o != nil && !o.Module && o.Plain },
			"a plain class: not a module, and its __call__ computes nothing with torch"},
		{"engine.predict", func(o *analyzer.Object) bool {
			return o != nil && o.GradKnown && o.Grad == analyzer.GradDisabled
		}, "every caller, in train.py and infer.py, disables grad"},
		{"engine.run_batch", func(o *analyzer.Object) bool {
			return o != nil && !o.GradKnown && o.Forward != nil && o.Forward.Line == 7 && o.ReturnsGraph && o.CalledElsewhere
		}, "runs and returns a forward pass; called with grad enabled, as engine.py alone would judge, by train.py, where engine.py sees no call"},
		{"engine.saliency", func(o *analyzer.Object) bool {
			return o != nil && o.Forward == nil && !o.GradKnown && o.CalledElsewhere
		}, "no forward pass: it needs gradients, so its forward pass is not one to disable; called with grad enabled by train.py"},
		{"engine.step_fn", func(o *analyzer.Object) bool {
			return o != nil && o.EmptyCache != nil && o.EmptyCache.Path == "engine.py" && o.EmptyCache.Line == 18
		}, "empties the cache on every call"},
		{"engine.maybe_clear", func(o *analyzer.Object) bool { return o != nil && o.EmptyCache == nil && o.CalledElsewhere },
			"empties the cache only under a condition; called by train.py"},
		{"engine.accuracy", func(o *analyzer.Object) bool {
			return o != nil && !o.ReturnsGraph && o.GradKnown && o.Grad == analyzer.GradDisabled
		}, "a metric of argmax results, whose one caller disables grad"},
		{"nowhere.thing", func(o *analyzer.Object) bool { return o == nil }, "outside the project"},
	}
	for _, c := range cases {
		if o := train.Lookup(c.ref, all); !c.check(o) {
			t.Errorf("Lookup(%q) = %+v: want %s", c.ref, o, c.what)
		}
	}
	star := g.Facts(filepath.Join(root, "star_only.py"))
	if q := star.Star("torch"); q != "torch" {
		t.Errorf(`Star("torch") = %q, want "torch" (utils.py imports it)`, q)
	}
	if q := star.Star("set_seed"); q != "utils.set_seed" {
		t.Errorf(`Star("set_seed") = %q, want "utils.set_seed"`, q)
	}
	if o := star.Lookup("models.Classifier", analyzer.WantReturns); o != nil {
		t.Errorf("asked only whether models.Classifier returns a graph, got %+v", o)
	}
	if len(star.Asked) != 3 {
		t.Errorf("recorded %d questions, want 3", len(star.Asked))
	}
	if star.Stale(analyzer.PairsOf(star.Asked)) {
		t.Error("the same answers are reported stale")
	}
	if !star.Stale(Questions{{Key: "Storch", Value: "numpy"}}) {
		t.Error("a changed answer is not reported stale")
	}
}

func TestGraphRelativeAndSrcImports(t *testing.T) {
	g, root := graphOf(t, "srclayout")
	rollout := g.Facts(filepath.Join(root, "src", "rlkit", "agents", "rollout.py"))
	if o := rollout.Lookup("..agents.Policy", all); o == nil || !o.Module {
		t.Errorf("..agents.Policy from rollout.py = %+v, want the module class of nets.py", o)
	}
	run := g.Facts(filepath.Join(root, "scripts", "run.py"))
	if o := run.Lookup("rlkit.agents.Policy", all); o == nil || !o.Module || o.Site.Path != "src/rlkit/agents/nets.py" {
		t.Errorf("rlkit.agents.Policy from scripts/run.py = %+v, want nets.py's Policy through src/", o)
	}
}

// lightSummary and importedModules are the two halves of scanText.
func lightSummary(src []byte) *analyzer.Summary {
	_, s := scanText(src)
	return s
}

func importedModules(src []byte) [][]string {
	imports, _ := scanText(src)
	return imports
}

func TestLightSummary(t *testing.T) {
	src := []byte(`import torch.nn as nn  # layers
import os, numpy as np
from .base import (Base as B,
    Other)
from .losses import *
from .blocks import (  # noqa
    Down2D,  # the one the nets use
    Up2D,
)
from .heads import first, \
    second as snd

"""
from .doc import (example,
    1 + 2 is not a name, nor are (these)
"""


def f():
    import helpers


class Net(nn.Module):
    pass


class Head(B, metaclass=Meta):
    pass
`)
	s := lightSummary(src)
	for name, want := range map[string]string{"nn": "torch.nn", "os": "os", "np": "numpy", "B": ".base.Base", "Other": ".base.Other",
		"Down2D": ".blocks.Down2D", "Up2D": ".blocks.Up2D", "first": ".heads.first", "snd": ".heads.second", "example": ".doc.example",
		"second": "", "1": "", "+": "", "is": "", "these": "", "Head": ""} {
		if got, _ := s.Bindings.Get(name); got != want {
			t.Errorf("binding %s = %q, want %q", name, got, want)
		}
	}
	if _, ok := s.Bindings.Get("helpers"); ok {
		t.Error("an import inside a function is bound at module level")
	}
	if len(s.Stars) != 1 || s.Stars[0] != ".losses" {
		t.Errorf("stars: %v", s.Stars)
	}
	if len(s.Classes) != 2 || !s.Classes[0].Module || s.Classes[1].Module || len(s.Classes[1].Bases) != 1 || s.Classes[1].Bases[0] != ".base.Base" {
		t.Errorf("classes: %+v", s.Classes)
	}
	var flat []string
	for _, group := range importedModules(src) {
		flat = append(flat, group...)
	}
	mods := strings.Join(flat, " ")
	if want := "torch.nn os numpy .base .base.Base .base.Other .losses .blocks .blocks.Down2D .blocks.Up2D .heads .heads.first .heads.second .doc .doc.example helpers"; mods != want {
		t.Errorf("importedModules: %q, want %q", mods, want)
	}
}

// TestLightSummaryDefinitions: the scan of a file's text finds the
// functions and methods its summary has, on the lines of their def, and
// the names imported at module level inside blocks, not those of a def.
func TestLightSummaryDefinitions(t *testing.T) {
	src := []byte(`from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .impl import Lazy
try:
    from .fast import kernel
except ImportError:
    kernel = None


@decorated
def top(x):
    def nested():
        pass
    return x


async def fetch():
    pass


def spread(
    a,
    b,
):
    from .late import hidden
    return a


class Plain:
    """A class without bases.
    """

    def method(self):
        def inner():
            pass

    async def amethod(self):
        pass


class Net(
    nn.Module,
):
    def forward(self, x):
        return x


class Outer:
    class Meta:
        def inner(self):
            pass

    def step(self):
        pass


class Wide(
        Base):
    def run(self):
        pass


class Box[T](Base):  # generic
    def get(self):
        pass
`)
	s := lightSummary(src)
	var funcs []string
	for _, f := range s.Funcs {
		funcs = append(funcs, fmt.Sprintf("%s:%d", f.Name, f.Line))
	}
	if got, want := strings.Join(funcs, " "), "top:12 fetch:18 spread:22 Plain.method:34 Plain.amethod:38 Net.forward:45 Outer.step:54 Wide.run:60 Box.get:65"; got != want {
		t.Errorf("functions: %s, want %s", got, want)
	}
	var classes []string
	for _, c := range s.Classes {
		classes = append(classes, fmt.Sprintf("%s:%d", c.Name, c.Line))
	}
	if got, want := strings.Join(classes, " "), "Plain:30 Net:42 Outer:49 Wide:58 Box:64"; got != want {
		t.Errorf("classes: %s, want %s", got, want)
	}
	for name, want := range map[string]string{"Lazy": ".impl.Lazy", "kernel": ".fast.kernel", "hidden": "", "TYPE_CHECKING": "typing.TYPE_CHECKING"} {
		if got, _ := s.Bindings.Get(name); got != want {
			t.Errorf("binding %s = %q, want %q", name, got, want)
		}
	}
}

// TestImportLevelsFollowNames: a file that imports a name from a package
// comes after the module that defines it, not in one cycle with the
// package's __init__.py, which imports that module and is imported back
// for a constant.
func TestImportLevelsFollowNames(t *testing.T) {
	root := t.TempDir()
	g := NewGraph(root, nil)
	var units []*unit
	for _, f := range []struct{ path, src string }{
		{"pkg/__init__.py", "from .impl import run\n__version__ = \"1.0\"\n"},
		{"pkg/impl.py", "from pkg import __version__\n\n\ndef run(model):\n    return model\n"},
		{"main.py", "from pkg import run\n"},
	} {
		u := &unit{path: f.path, abs: filepath.Join(root, filepath.FromSlash(f.path))}
		u.imports = importedModules([]byte(f.src))
		g.Add(u.abs, lightSummary([]byte(f.src)))
		units = append(units, u)
	}
	g.Solve()
	level := map[string]int{}
	for i, lv := range importLevels(g, units) {
		for _, u := range lv {
			level[u.path] = i
		}
	}
	if level["pkg/impl.py"] >= level["pkg/__init__.py"] || level["pkg/impl.py"] >= level["main.py"] {
		t.Errorf("levels %v: pkg/impl.py must come before the package and main.py", level)
	}
}

// TestFreshParams: a question about a function's parameters gets from
// the summary of a file summarized since the last solve the answer the
// next solve gives, and from the text scan's summary before that none.
func TestFreshParams(t *testing.T) {
	root := t.TempDir()
	lib, main := filepath.Join(root, "lib.py"), filepath.Join(root, "main.py")
	libSrc := "def add_loss(total, loss):\n    return total + loss\n"
	g := NewGraph(root, nil)
	g.Add(lib, lightSummary([]byte(libSrc)))
	g.Add(main, lightSummary([]byte("from lib import add_loss\n")))
	g.Solve()
	full := &analyzer.Summary{Funcs: []analyzer.FuncSummary{{Name: "add_loss", Line: 1,
		Rare: &analyzer.RareFuncFacts{GraphParams: []int{0, 1}}}}}
	ask := func() *analyzer.Object { return g.Facts(main).Lookup("lib.add_loss", analyzer.WantParams) }
	if o := ask(); o != nil {
		t.Fatalf("from the text scan: %+v, want none", o)
	}
	g.Fresh(lib, full)
	fresh := ask()
	if fresh == nil || !slices.Equal(fresh.GraphParams, []int{0, 1}) {
		t.Fatalf("from the fresh summary: %+v, want GraphParams [0 1]", fresh)
	}
	g.Add(lib, full)
	g.Solve()
	if solved := ask(); answerKey(solved) != answerKey(fresh) {
		t.Errorf("after the solve: %+v, want the fresh answer %+v", solved, fresh)
	}
}

// TestLookupOnceAFile: one file's facts answer a question asked again
// with the answer it got the first time, even when a fresh summary
// arrives in between, so that its findings and the answer recorded for
// them agree; the file's next facts see the fresh summary.
func TestLookupOnceAFile(t *testing.T) {
	root := t.TempDir()
	lib, main := filepath.Join(root, "lib.py"), filepath.Join(root, "main.py")
	g := NewGraph(root, nil)
	g.Add(lib, lightSummary([]byte("def add_loss(total, loss):\n    return total + loss\n")))
	g.Add(main, lightSummary([]byte("from lib import add_loss\n")))
	g.Solve()
	ff := g.Facts(main)
	if o := ff.Lookup("lib.add_loss", analyzer.WantParams); o != nil {
		t.Fatalf("from the text scan: %+v, want none", o)
	}
	g.Fresh(lib, &analyzer.Summary{Funcs: []analyzer.FuncSummary{{Name: "add_loss", Line: 1,
		Rare: &analyzer.RareFuncFacts{GraphParams: []int{0, 1}}}}})
	if o := ff.Lookup("lib.add_loss", analyzer.WantParams); o != nil {
		t.Errorf("asked again of the same facts: %+v, want the first answer (none)", o)
	}
	if got := ff.Asked["L"+strconv.Itoa(int(analyzer.WantParams))+" lib.add_loss"]; got != "" {
		t.Errorf("recorded answer %q, want the first (none)", got)
	}
	if o := g.Facts(main).Lookup("lib.add_loss", analyzer.WantParams); o == nil || !slices.Equal(o.GraphParams, []int{0, 1}) {
		t.Errorf("new facts of the file: %+v, want GraphParams [0 1]", o)
	}
}

// TestChunks: the runs of files between two solves end where a level
// does, unless a level is too large for one.
func TestChunks(t *testing.T) {
	level := func(n int) []*unit {
		out := make([]*unit, n)
		for i := range out {
			out[i] = &unit{}
		}
		return out
	}
	for _, tc := range []struct {
		levels []int
		want   []int
	}{
		{[]int{30, 40, 50}, []int{70, 50}},                 // 30+40 and then 50: the third would exceed 100
		{[]int{10, 300, 20}, []int{10, 100, 100, 100, 20}}, // a level too large is cut, after the run before it
		{[]int{120}, []int{120}},                           // up to half as large again fits
		{[]int{5, 5, 5}, []int{15}},
	} {
		var levels [][]*unit
		for _, n := range tc.levels {
			levels = append(levels, level(n))
		}
		var got []int
		for _, c := range chunks(levels, 100) {
			got = append(got, len(c))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("chunks of levels %v: %v, want %v", tc.levels, got, tc.want)
		}
	}
	// A size too small for a run is taken as 2: every file once, no
	// empty run.
	for _, size := range []int{0, 1} {
		n := 0
		for _, c := range chunks([][]*unit{level(3), level(2)}, size) {
			if len(c) == 0 {
				t.Errorf("size %d: an empty run", size)
			}
			n += len(c)
		}
		if n != 5 {
			t.Errorf("size %d: %d files in the runs, want 5", size, n)
		}
	}
}

// TestAnswerKeyParams checks that an answer's key changes with the
// parameters' facts, so that a cached file whose callee now keeps or
// back-propagates another parameter is linted again.
func TestAnswerKeyParams(t *testing.T) {
	base := &analyzer.Object{Kind: analyzer.ObjectFunction, GraphParams: []int{0}}
	for _, o := range []*analyzer.Object{
		{Kind: analyzer.ObjectFunction, GraphParams: []int{1}},
		{Kind: analyzer.ObjectFunction, GraphParams: []int{0}, BackpropParams: []int{0}},
		{Kind: analyzer.ObjectFunction},
	} {
		if answerKey(o) == answerKey(base) {
			t.Errorf("%+v and %+v share the key %q", o, base, answerKey(o))
		}
	}
}

// TestStarImportWeb resolves names through a package whose modules
// star-import one another and the package itself, as some research code
// does: a name found deep in the web, and one found nowhere. Each lookup
// is searched once per resolution, so this finishes at once; searching
// every path to it took hours.
func TestStarImportWeb(t *testing.T) {
	root := t.TempDir()
	const n = 12
	write := func(rel, text string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var init strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&init, "from .m%d import *\n", i)
		var mod strings.Builder
		mod.WriteString("from . import *\n")
		for j := 0; j < n; j++ {
			if j != i {
				fmt.Fprintf(&mod, "from .m%d import *\n", j)
			}
		}
		if i == n-1 {
			mod.WriteString("import torch.nn as nn\n\n\nclass Deep(nn.Module):\n    def forward(self, x):\n        return x\n")
		}
		write(fmt.Sprintf("pkg/m%d.py", i), mod.String())
	}
	write("pkg/__init__.py", init.String())
	write("train.py", "from pkg import Deep, Missing\n")
	g := graphAt(t, root)
	facts := g.Facts(filepath.Join(root, "train.py"))
	if o := facts.Lookup("pkg.Deep", analyzer.WantModule); o == nil || !o.Module || o.Site.Path != filepath.Join("pkg", fmt.Sprintf("m%d.py", n-1)) {
		t.Errorf("pkg.Deep: %+v, want the module class of pkg/m%d.py", o, n-1)
	}
	if o := facts.Lookup("pkg.Missing", analyzer.WantKind); o != nil {
		t.Errorf("pkg.Missing: %+v, want nothing", o)
	}
	// Not found is an answer, not a search cut short: a call of it may
	// be matched by its name.
	if tg := g.resolve("pkg.Missing", g.files[filepath.Join(root, "train.py")]); tg.found() || tg.cut {
		t.Errorf("pkg.Missing resolves to %+v, want not found and not cut", tg)
	}
}

// TestStepsHostRead: a question about what a function does to a training
// step gets the function's reads on the host only when it asks for them,
// so that the rules that do not read them keep their answers when they
// change.
func TestStepsHostRead(t *testing.T) {
	g, root := graphOf(t, "steps")
	train := g.Facts(filepath.Join(root, "train.py"))
	if o := train.Lookup("engine.accuracy", analyzer.WantSteps); o != nil {
		t.Errorf("WantSteps alone: %+v, want none (accuracy only reads a tensor on the host)", o)
	}
	o := train.Lookup("engine.accuracy", analyzer.WantSteps|analyzer.WantHostRead)
	if o == nil || o.HostRead == nil || o.HostRead.Line != 36 {
		t.Errorf("WantSteps|WantHostRead: %+v, want the read on the host at engine.py:36", o)
	}
	if o := train.Lookup("engine.run_epoch", analyzer.WantSteps); o == nil || o.Backward == nil || o.HostRead != nil {
		t.Errorf("WantSteps of a training step: %+v, want its backward without its reads on the host", o)
	}
}

// TestCallerQuestionsAskedLast: a file's questions about its own
// functions that only their callers in other files answer (the grad mode
// they run in, whether another file calls them) are asked only where the
// answer decides something, so that a file is not linted again because
// such an answer came after its first pass. A helper that only computes
// on Python values, or whose parameters are given no instance of a
// class, asks neither; one that runs a forward pass of a module asks its
// grad mode.
func TestCallerQuestionsAskedLast(t *testing.T) {
	root := t.TempDir()
	lib, train := filepath.Join(root, "lib.py"), filepath.Join(root, "train.py")
	libSrc := []byte(`import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


def scaled(value, factor):
    return value * factor + 1


def pad(items, size):
    return [item + [0] * (size - len(item)) for item in items]


def batches(items):
    return pad(items, 8)


def widths(rows):
    return [rows.count(row) for row in rows]


def report(rows):
    return scaled(len(rows), 2.0), widths(rows)


table = [[1], [2, 3]]
print(report(table))


def predict(x):
    net = Net()
    out = net(x)
    return out.argmax(1)
`)
	trainSrc := []byte(`import torch
from lib import scaled, batches, predict

with torch.no_grad():
    print(scaled(2.0, 3.0), batches([[1], [2, 3]]), predict(torch.zeros(1, 4)))
`)
	g := NewGraph(root, nil)
	g.Add(lib, lightSummary(libSrc))
	g.Add(train, lightSummary(trainSrc))
	g.Solve()
	ff := g.Facts(lib)
	newLinter(t).Runner.Analyze(lib, libSrc, ff, true)
	ask := func(want analyzer.Want, name string) string { return "L" + strconv.Itoa(int(want)) + " #" + name }
	for _, q := range []string{ask(analyzer.WantGrad, "scaled"), ask(analyzer.WantGrad, "pad"),
		ask(analyzer.WantCallers, "widths"), ask(analyzer.WantCallers, "report")} {
		if _, ok := ff.Asked[q]; ok {
			t.Errorf("asked %q: its answer decides nothing", q)
		}
	}
	if _, ok := ff.Asked[ask(analyzer.WantGrad, "predict")]; !ok {
		t.Errorf("the grad mode of predict, which runs a forward pass, was not asked; asked %v", ff.Asked)
	}
}

// TestNeedsGradStopsForward checks that a function that back-propagates
// its own pass (a saliency map's __call__) tells its callers of no
// forward pass in their grad mode, though it runs one through a method
// that does (its forward).
func TestNeedsGradStopsForward(t *testing.T) {
	g, root := graphOf(t, "saliencywrappers")
	ff := g.Facts(filepath.Join(root, "run.py"))
	if o := ff.Lookup("saliency.guided.GuidedBackprop.forward", analyzer.WantHelper); o == nil || o.Forward == nil {
		t.Fatalf("GuidedBackprop.forward: want the forward pass it runs, got %+v", o)
	}
	if o := ff.Lookup("saliency.GuidedBackprop.__call__", analyzer.WantHelper); o != nil && o.Forward != nil {
		t.Errorf("GuidedBackprop.__call__: want no forward pass in its callers' mode, got one at %+v", *o.Forward)
	}
}
