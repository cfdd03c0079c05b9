package analyzer

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// find returns the first node of kind whose text is text.
func find(t *testing.T, f *File, kind Kind, text string, nth int) NodeID {
	t.Helper()
	for i := range f.Nodes {
		if f.Nodes[i].Kind == kind && f.Text(NodeID(i)) == text {
			if nth == 0 {
				return NodeID(i)
			}
			nth--
		}
	}
	t.Fatalf("no %s %q", kind, text)
	return NoNode
}

func model(t *testing.T, src string) *Model {
	t.Helper()
	f, err := Parse("m.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return NewModel(f)
}

func TestQualifiedNames(t *testing.T) {
	m := model(t, `import torch as th
from torch import no_grad as ng
import torch.nn.functional as F
from torch.cuda import empty_cache
import torch.utils.data
from . import sibling
F2 = th.nn.functional
th.no_grad()
ng()
F.cross_entropy(a, b)
empty_cache()
torch.utils.data.DataLoader(x)
sibling.thing()
F2.mse_loss(a, b)
th.autograd.grad_mode.no_grad()
float(x)

def f():
    def empty_cache():
        pass
    empty_cache()
`)
	cases := map[string]string{
		"th.no_grad()":                    "torch.no_grad",
		"ng()":                            "torch.no_grad",
		"F.cross_entropy(a, b)":           "torch.nn.functional.cross_entropy",
		"torch.utils.data.DataLoader(x)":  "torch.utils.data.DataLoader",
		"sibling.thing()":                 "..sibling.thing",
		"F2.mse_loss(a, b)":               "torch.nn.functional.mse_loss",
		"th.autograd.grad_mode.no_grad()": "torch.no_grad",
		"float(x)":                        "float",
	}
	for text, want := range cases {
		if got := m.CallName(find(t, m.File, KindCall, text, 0)); got != want {
			t.Errorf("%s: got %q, want %q", text, got, want)
		}
	}
	if got := m.CallName(find(t, m.File, KindCall, "empty_cache()", 0)); got != "torch.cuda.empty_cache" {
		t.Errorf("module-level empty_cache(): %q", got)
	}
	if got := m.CallName(find(t, m.File, KindCall, "empty_cache()", 1)); got != "" {
		t.Errorf("shadowed empty_cache(): %q, want no qualified name", got)
	}
}

// TestMarimoCellImports: a marimo cell's parameters are the modules other
// cells import; a plain function's parameter of the same name is not,
// nor a name two cells import differently.
func TestMarimoCellImports(t *testing.T) {
	m := model(t, `import marimo

app = marimo.App()


@app.cell
def _():
    import torch
    import torch.nn.functional as F
    import numpy as np
    return F, np, torch


@app.cell(hide_code=True)
def _():
    import jax.numpy as np
    return (np,)


@app.cell
def _(F, np, torch):
    torch.FloatTensor(s)
    F.softmax(y, dim=0)
    np.asarray(y)
    return


def plain(torch):
    torch.zeros(3)
`)
	cases := []struct {
		text, want string
	}{
		{"torch.FloatTensor(s)", "torch.FloatTensor"},
		{"F.softmax(y, dim=0)", "torch.nn.functional.softmax"},
		{"np.asarray(y)", ""},  // two cells import it, differently
		{"torch.zeros(3)", ""}, // not a cell
	}
	for _, c := range cases {
		if got := m.CallName(find(t, m.File, KindCall, c.text, 0)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.text, got, c.want)
		}
	}
}

func TestGradMode(t *testing.T) {
	m := model(t, `import torch
from torch import inference_mode

def a(model, x):
    with torch.no_grad():
        y1 = model(x)
        with torch.enable_grad():
            y2 = model(x)
    y3 = model(x)

@torch.no_grad
def b(model, x):
    return model(x)

@inference_mode()
def c(model, x):
    return model(x)

def d(model, x):
    with torch.set_grad_enabled(train):
        return model(x)

def helper(model, x):
    return model(x)

def e(model, x):
    with torch.inference_mode(False):
        y4 = model(x)
    with torch.no_grad():
        helper(model, x)

def used_as_value(model, x):
    return model(x)

with torch.no_grad():
    used_as_value(m, x)
callbacks = [used_as_value]
`)
	calls := []struct {
		text string
		nth  int
		want GradMode
	}{
		{"model(x)", 0, GradDisabled}, // y1
		{"model(x)", 1, GradEnabled},  // y2 under enable_grad
		{"model(x)", 2, GradEnabled},  // y3 after the with
		{"model(x)", 3, GradDisabled}, // @torch.no_grad without parentheses
		{"model(x)", 4, GradDisabled}, // @inference_mode()
		{"model(x)", 5, GradUnknown},  // set_grad_enabled(train)
		{"model(x)", 6, GradDisabled}, // helper: every call site under no_grad
		{"model(x)", 7, GradEnabled},  // inference_mode(False)
		{"model(x)", 8, GradUnknown},  // used_as_value escapes into a list: its callers are unknown
	}
	for _, c := range calls {
		id := find(t, m.File, KindCall, c.text, c.nth)
		if got := m.GradModeAt(id); got != c.want {
			t.Errorf("%s #%d (line %d): %s, want %s", c.text, c.nth, m.File.Position(m.File.N(id).Start).Line, got, c.want)
		}
	}
}

func TestCarriesGraph(t *testing.T) {
	m := model(t, `import torch
import torch.nn as nn
import torch.nn.functional as F

net = nn.Linear(4, 2)
crit = nn.MSELoss()

def run(x, y, outputs):
    out = net(x)
    loss = crit(out, y)
    scaled = loss * 2
    item = loss.item()
    det = loss.detach()
    flt = float(loss)
    cmp = (out.argmax(1) == y).sum()
    shape = out.shape
    with torch.no_grad():
        frozen = net(x)
    f_loss = F.cross_entropy(out, y)
    hf = outputs.loss
    rebound = loss
    rebound = rebound.item()
    use = rebound
    sel = out[0] + out.mean()
    return scaled, item, det, flt, cmp, shape, frozen, f_loss, hf, use, sel
`)
	want := map[string]bool{
		"scaled": true, "item": false, "det": false, "flt": false, "cmp": false, "shape": false,
		"frozen": false, "f_loss": true, "hf": false, "use": false, "sel": true,
	}
	ret := find(t, m.File, KindReturnStatement, "return scaled, item, det, flt, cmp, shape, frozen, f_loss, hf, use, sel", 0)
	m.File.Walk(ret, func(id NodeID) {
		if m.File.Kind(id) != KindIdentifier {
			return
		}
		name := m.File.Text(id)
		if got := m.CarriesGraph(id); got != want[name] {
			t.Errorf("%s: carries=%v, want %v", name, got, want[name])
		}
	})
}

func TestSyntaxErrorsAndPositions(t *testing.T) {
	f, err := Parse("e.py", []byte("x = (1,\ny = 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.SyntaxErrors()) == 0 {
		t.Fatal("no syntax error reported for an unclosed parenthesis")
	}
	g, _ := Parse("u.py", []byte("größe = 1\r\nx = größe\n"))
	id := find(t, g, KindIdentifier, "größe", 1)
	if pos := g.Position(g.N(id).Start); pos != (Position{Line: 2, Column: 5}) {
		t.Errorf("position after CRLF and non-ASCII: %+v", pos)
	}
	if g.Line(1) != "größe = 1" {
		t.Errorf("Line(1) = %q", g.Line(1))
	}
	empty, err := Parse("empty.py", nil)
	if err != nil || len(empty.Nodes) == 0 || empty.Nodes[0].Kind != KindModule {
		t.Errorf("empty file: %v %v", err, empty)
	}
	if !strings.Contains(empty.String(), "empty.py") {
		t.Error(empty.String())
	}
}

func TestGlobalStatements(t *testing.T) {
	// A global statement at module level is legal and must not loop.
	m := model(t, `global counter
counter = 0
def bump():
    global counter
    counter += 1
    return counter
`)
	// `counter += 1` reads the module's counter; `return counter` reads
	// the one bump has just assigned.
	for _, c := range []struct{ nth, line int }{{3, 2}, {4, 5}} {
		use := find(t, m.File, KindIdentifier, "counter", c.nth)
		b := m.Resolve(use)
		if b == nil || m.File.Position(m.File.N(b.Name).Start).Line != c.line {
			t.Fatalf("counter #%d in bump resolved to %+v, want the binding on line %d", c.nth, b, c.line)
		}
	}
}

func TestEnclosingLoops(t *testing.T) {
	m := model(t, `def f(loader, model, xs):
    for batch in loader:
        a = model(batch)
    else:
        b = model(xs)
    while True:
        c = model(xs)
    d = [model(x) for x in loader]
    e = {k: model(v) for k, v in loader}
    async def g():
        async for item in loader:
            h = model(item)
    z = model(xs)
`)
	cases := []struct {
		call string
		loop Kind
	}{
		{"model(batch)", KindForStatement},
		{"model(xs)", KindOther}, // the else clause runs once
		{"model(xs)", KindWhileStatement},
		{"model(x)", KindListComprehension},
		{"model(v)", KindDictionaryComprehension},
		{"model(item)", KindForStatement},
		{"model(xs)", KindOther},
	}
	seen := map[string]int{}
	for _, c := range cases {
		id := find(t, m.File, KindCall, c.call, seen[c.call])
		seen[c.call]++
		got := m.File.Kind(m.EnclosingLoop(id))
		if got != c.loop {
			t.Errorf("%s #%d: loop %s, want %s", c.call, seen[c.call]-1, got, c.loop)
		}
	}
	comp := m.EnclosingLoop(find(t, m.File, KindCall, "model(x)", 0))
	if it := m.LoopIterable(comp); !m.File.TextIs(it, "loader") {
		t.Errorf("comprehension iterable %q", m.File.Text(it))
	}
}

func TestCyclicClassesTerminate(t *testing.T) {
	// Each class names the other three times: without a visited set the
	// inheritance walk is exponential.
	src := "class A(B, B, B):\n    pass\nclass B(A, A, A):\n    pass\n"
	for i := 0; i < 30; i++ {
		src += fmt.Sprintf("class C%d(C%d, C%d, C%d, A):\n    pass\n", i, i+1, i+1, i+1)
	}
	src += "class C30(C0, C0):\n    pass\nm = C0()\nm(x)\n"
	m := model(t, src)
	class := m.Resolve(find(t, m.File, KindIdentifier, "C0", 1)).Stmt
	if m.IsModuleClass(class) {
		t.Error("a cycle of plain classes is not an nn.Module")
	}
}

func TestScopesOfHeaders(t *testing.T) {
	m := model(t, `from torch.nn import Linear
class Linear(Linear):
    pass
xs = [1]
for xs in xs:
    pass
ys = [1]
zs = [ys for ys in ys]
model = 1
def f(model=model):
    return model
`)
	cases := []struct {
		text string
		nth  int
		line int // line of the binding it must resolve to
	}{
		{"Linear", 2, 1}, // the base of class Linear is the imported Linear
		{"xs", 2, 4},     // for xs in xs: the iterable is the outer xs
		{"ys", 3, 7},     // [ys for ys in ys]: the first iterable is outer
		{"model", 2, 9},  // def f(model=model): the default is the module's model
	}
	for _, c := range cases {
		id := find(t, m.File, KindIdentifier, c.text, c.nth)
		b := m.Resolve(id)
		if b == nil {
			t.Errorf("%s #%d: unresolved", c.text, c.nth)
			continue
		}
		if line := m.File.Position(m.File.N(b.Name).Start).Line; line != c.line {
			t.Errorf("%s #%d resolved to the binding on line %d, want %d", c.text, c.nth, line, c.line)
		}
	}
}

func TestParserResetsAfterTimeout(t *testing.T) {
	p := newParser()
	defer p.close()
	big := []byte(strings.Repeat("exec ", 200000))
	if _, err := p.parseFlat(big, 1, nil); err == nil {
		t.Skip("the parse finished within 1µs; cannot provoke a timeout")
	}
	small := []byte("x = 1\n")
	raw, err := p.parseFlat(small, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range raw {
		if int(n.End) > len(small) {
			t.Fatalf("node ends at %d in a %d-byte file: the parser resumed the abandoned parse", n.End, len(small))
		}
	}
}

func TestLongBindingChains(t *testing.T) {
	// A name bound many times in one scope is looked up through a sorted
	// index; each use must still see the binding just before it.
	src := "x = 0\n"
	for i := 0; i < 50; i++ {
		src += "x = x + 1\n"
	}
	m := model(t, src)
	for line := 2; line <= 51; line++ {
		use := NoNode
		m.File.Walk(Root, func(id NodeID) {
			if use == NoNode && m.File.Kind(id) == KindIdentifier && m.File.Kind(m.File.Parent(id)) == KindBinaryOperator &&
				m.File.Position(m.File.N(id).Start).Line == line {
				use = id
			}
		})
		b := m.Resolve(use)
		if b == nil {
			t.Fatalf("x on line %d is unresolved", line)
		}
		if got := m.File.Position(m.File.N(b.Name).Start).Line; got != line-1 {
			t.Fatalf("x on line %d resolved to line %d, want %d", line, got, line-1)
		}
	}
}

// TestResolveRemembers: Resolve answers each identifier from a memo after
// the first time; every answer, first or remembered, is the binding that
// ResolveName finds, in a fixture with shadowing, globals, class scopes,
// comprehensions and rebinding.
func TestResolveRemembers(t *testing.T) {
	src := `import torch
x = 1
def f(x, y=x):
    global z
    z = x
    for x in range(3):
        y = [x for x in y]
    class C:
        x = y
        def g(self):
            return x, C
    return lambda x: x + y
x = f(x)
print(x, z, undefined)
`
	m := model(t, src)
	f := m.File
	ids, bound := 0, 0
	for round := 0; round < 2; round++ {
		for i := range f.Nodes {
			id := NodeID(i)
			if f.Kind(id) != KindIdentifier {
				continue
			}
			want := m.ResolveName(f.Text(id), m.scopeOf[id], f.N(id).Start)
			if got := m.Resolve(id); got != want {
				t.Fatalf("round %d: %q at %d: Resolve gives %v, ResolveName %v", round, f.Text(id), f.N(id).Start, got, want)
			}
			if round == 0 {
				ids++
				if want != nil {
					bound++
				}
			}
		}
	}
	if ids < 30 || bound == 0 || bound == ids {
		t.Fatalf("%d identifiers, %d bound: the fixture does not exercise both answers", ids, bound)
	}
}

// TestLegacyConstructorsCopy: `torch.FloatTensor([reward])` copies the
// reward into a new leaf, as `torch.tensor` does, so a function that
// back-propagates a loss built from it back-propagates the value it is
// given, not the reward.
func TestLegacyConstructorsCopy(t *testing.T) {
	m := model(t, `import torch

def learn(value, reward, optimizer):
    loss = (value - torch.FloatTensor([reward])).pow(2).mean()
    loss.backward()
    optimizer.step()
`)
	def := m.File.Parent(find(t, m.File, KindIdentifier, "learn", 0))
	if got := m.BackpropParams(def); !slices.Equal(got, []int{0}) {
		t.Errorf("BackpropParams = %v, want [0] (value, not reward)", got)
	}
}

// TestGlobalNamesFollowTheFunction: in a function that declares a name
// global, its own assignments of the name reach its later uses in order,
// as a local's would; before the first of them, the name is the
// module's.
func TestGlobalNamesFollowTheFunction(t *testing.T) {
	m := model(t, `total = None

def step(batches, optimizer):
    global total
    print(total)
    total = 0
    for b in batches:
        total += b.sum()
    optimize(optimizer, total)
`)
	f := m.File
	module := find(t, f, KindIdentifier, "total", 0)
	before := find(t, f, KindIdentifier, "total", 2)
	reset := find(t, f, KindIdentifier, "total", 3)
	sum := find(t, f, KindIdentifier, "total", 4)
	use := find(t, f, KindIdentifier, "total", 5)
	if b := m.Resolve(before); b == nil || !f.Contains(b.Stmt, module) {
		t.Errorf("`print(total)` before the function assigns it: resolves to %+v, want the module's binding", b)
	}
	b := m.Resolve(use)
	if b == nil || !f.Contains(b.Stmt, sum) && !f.Contains(b.Stmt, reset) {
		t.Fatalf("`optimize(optimizer, total)`: resolves to %+v, want the function's own assignment of total", b)
	}
}

// TestBackpropThroughHandedCallables: a loss or a network a function is
// handed computes its result from what it is given, so a backward of
// that result runs through the arguments (`data` here, not the
// run's options, whose attributes are settings).
func TestBackpropThroughHandedCallables(t *testing.T) {
	m := model(t, `def train_generator(discriminator, data, label, criterion):
    output = discriminator(data)[0].view(-1)
    error = criterion(output, label) / opt_scale(label)
    error.backward()
    return error


def train_epoch(loader, model, contrast, criterion, optimizer, opt):
    for batch in loader:
        out = contrast(model(batch)) / opt.temperature
        loss = criterion(out)
        loss.backward()


def fit(compute_loss, batch, optimizer):
    loss, n = compute_loss(batch)
    (loss * n).backward()
`)
	f := m.File
	for _, c := range []struct {
		name string
		want []int
	}{
		{"train_generator", []int{1, 2}},
		{"train_epoch", []int{0}},
		{"fit", []int{1}},
	} {
		def := f.Parent(find(t, f, KindIdentifier, c.name, 0))
		if got := m.BackpropParams(def); !slices.Equal(got, c.want) {
			t.Errorf("BackpropParams(%s) = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestLineContinuationIsNoChild: a `\` that continues a statement's line
// is not among the children of the node it sits in, as a comment is not:
// the targets of an unpacking over two lines line up with its values.
func TestLineContinuationIsNoChild(t *testing.T) {
	m := model(t, "a, b, \\\n    c = 1, 2, \\\n    3\n")
	f := m.File
	pattern, values := NoNode, NoNode
	for i := range f.Nodes {
		switch f.Nodes[i].Kind {
		case KindPatternList:
			pattern = NodeID(i)
		case KindExpressionList:
			values = NodeID(i)
		}
	}
	if pattern == NoNode || values == NoNode {
		t.Fatal("no pattern list or no expression list")
	}
	var names, vals []string
	for _, c := range f.ChildList(pattern) {
		names = append(names, f.Text(c))
	}
	for _, c := range f.ChildList(values) {
		vals = append(vals, f.Text(c))
	}
	if !slices.Equal(names, []string{"a", "b", "c"}) || !slices.Equal(vals, []string{"1", "2", "3"}) {
		t.Errorf("children %q = %q, want [a b c] = [1 2 3]", names, vals)
	}
}

// TestReachedUsesThroughArms: a name bound in either arm of an if, then
// rebound from itself (`out = out[:, 1:]`), is read there whichever arm
// bound it: the rebinding after the read, which the loop's next
// iteration would reach, kills neither binding. A binding every path
// runs between the two does.
func TestReachedUsesThroughArms(t *testing.T) {
	src := `for x in loader:
    with ctx():
        if flag:
            out = model(x)[0]
        else:
            out = model(x)
        out = out[:, 1:]
        loss = crit(out, y)
    loss.backward()
    out = None
`
	m := model(t, src)
	f := m.File
	for nth, line := range []int{4, 6} {
		b := find(t, f, KindIdentifier, "out", nth)
		if got := f.Position(f.N(b).Start).Line; got != line {
			t.Fatalf("binding %d is on line %d, want %d", nth, got, line)
		}
		uses := m.ReachedUsesOf(b)
		if len(uses) != 1 || f.Position(f.N(uses[0]).Start).Line != 7 || f.Field(f.Parent(uses[0]), FieldValue) != uses[0] {
			var lines []int
			for _, u := range uses {
				lines = append(lines, f.Position(f.N(u).Start).Line)
			}
			t.Errorf("uses of the binding on line %d: lines %v, want the read on line 7 alone", line, lines)
		}
	}
}
