package rules

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// gradAssumption records, on the last finding, that grad is enabled at
// node at only because no code of the project calls the function it is
// in: whoever does (a script elsewhere, a framework's loop) may disable
// it.
func gradAssumption(p *analyzer.Pass, at analyzer.NodeID) {
	m := p.Model
	assumed, byName, via, off := m.GradAssumed(at)
	name := m.FunctionName(m.EnclosingFunction(at))
	switch {
	case assumed && via != analyzer.NoNode && byName:
		p.Assume(fmt.Sprintf("grad is enabled where `%s` runs only through its calls in `%s`, known only from calls of a method of that name on objects of no known class, which may be another class's",
			name, m.FunctionName(via)))
	case assumed && via != analyzer.NoNode && m.EnclosingFunction(p.File.Parent(via)) != analyzer.NoNode:
		p.Assume(fmt.Sprintf("grad is enabled where `%s` runs only through its calls in `%s`, a function `%s` returns or hands on, whose callers are not followed",
			name, m.FunctionName(via), m.FunctionName(m.EnclosingFunction(p.File.Parent(via)))))
	case assumed && via != analyzer.NoNode:
		p.Assume(fmt.Sprintf("grad is enabled where `%s` runs only through its calls in `%s`, whose grad mode no call in the project shows",
			name, m.FunctionName(via)))
	case byName:
		p.Assume(fmt.Sprintf("grad is enabled where `%s` runs: known only from calls of a method of its name on objects of no known class, which may be another class's",
			name))
		if via := m.CallersAssumed(at); via != nil {
			// Those calls run in their caller's mode, which nothing of the
			// project sets: a framework's test loop may run it under
			// no_grad (`forward_test`, run from a module's `forward`).
			p.Assume(fmt.Sprintf("those calls run in their callers' grad mode (the first in `%s`, %s:%d), which no call in the project shows",
				via.Text, via.Path, via.Line))
		}
	case assumed:
		if via := m.CallersAssumed(at); via != nil {
			p.Assume(fmt.Sprintf("grad is enabled where `%s` runs only through its calls in other files, which run in their callers' grad mode (the first in `%s`, %s:%d), which no call in the project shows",
				name, via.Text, via.Path, via.Line))
			break
		}
		p.Assume(fmt.Sprintf("grad is enabled where `%s` runs: no call of it found in the project shows its grad mode "+
			"(calls through a factory, a registry or a framework are not followed)", name))
	}
	if byName && off != nil {
		// Calls of the name disagree: one that disables grad may be the
		// one that reaches this method (a script's `model.recognize(x)`
		// under no_grad, beside a decoder's `self.dec.recognize(h)`).
		p.Assume(fmt.Sprintf("a call of a method of that name on an object of no known class runs with grad disabled (%s:%d), and may be the one that reaches it",
			off.Path, off.Line))
		p.Evidence(analyzer.RelatedSite(off, "a call of a method of its name with grad disabled"))
	}
	if legacyVolatile(p.File.Src, volatileScope(p.File, m.EnclosingFunction(at))) {
		// Written for PyTorch 0.3 or older, where a volatile input
		// recorded no graph; since 0.4 it records one (TL202).
		p.Assume("grad is enabled: the file marks inputs `volatile=True`, which disabled grad in PyTorch 0.3 and older only")
	}
}

// legacyVolatile reports whether the code of a finding (scope, the
// source of its function) marks inputs `volatile=True` while its file
// (src) uses none of what PyTorch 0.4 brought to replace it
// (`torch.no_grad`, `.item()`): code written for 0.3, where such an
// input recorded no graph. A file that knows the new API left its
// volatile flags dead.
func legacyVolatile(src, scope []byte) bool {
	return bytes.Contains(scope, []byte("volatile=True")) && !bytes.Contains(src, []byte("no_grad")) &&
		!bytes.Contains(src, []byte("inference_mode")) && !bytes.Contains(src, []byte(".item()"))
}

// volatileScope is the source of function fn, or of the whole file for
// module-level code.
func volatileScope(f *analyzer.File, fn analyzer.NodeID) []byte {
	if fn == analyzer.NoNode || fn == analyzer.Root {
		return f.Src
	}
	n := f.N(fn)
	return f.Src[n.Start:n.End]
}

// graphAssumptions records, on the last finding, what its claim that
// value carries autograd history at node at took on trust: the model or
// loss that computed it known by its name alone, and the grad mode of a
// function nothing calls.
func graphAssumptions(p *analyzer.Pass, value, at analyzer.NodeID) {
	m := p.Model
	if !m.WithoutNames(func() bool { return m.CarriesGraph(value) }) {
		p.Assume(fmt.Sprintf("`%s` carries autograd history: known by the name of the model or loss that computed it alone",
			analyzer.Snippet(p.File.Text(value), 30)))
	}
	if e := boundDictEntry(m, value); e != analyzer.NoNode && !entryBackpropagated(m, e) {
		p.Assume(fmt.Sprintf("`%s` carries autograd history: an entry of a dict of outputs, which may hold values without it",
			analyzer.Snippet(p.File.Text(e), 30)))
	}
	if ref := m.UnsummarizedForwardElement(value); ref != "" {
		p.Assume(fmt.Sprintf("`%s` carries autograd history: an element of what `%s` returns, where the project does not show which of its elements hold a graph",
			analyzer.Snippet(p.File.Text(value), 30), ref[strings.LastIndexByte(ref[:strings.LastIndexByte(ref, '.')], '.')+1:]))
	}
	gradAssumption(p, at)
}

// methodAssumption records, on the last finding, that value is taken to
// carry autograd history only because a method of a model of no known
// class returned it (`self.model.g_a.batch_loss(...)`), where no
// backward() shows it does: such a method may return a number, a
// generator or a value computed without grad.
func methodAssumption(p *analyzer.Pass, value analyzer.NodeID) {
	if c := unknownModelMethod(p.Model, value); c != analyzer.NoNode {
		p.Assume(fmt.Sprintf("`%s` carries autograd history: what a method of a model of no known class returns, which may hold none",
			analyzer.Snippet(compactText(p.File, c), 30)))
	}
}

// unknownModelMethod returns the call that value is, or is computed from
// by tensor methods, of a method other than forward of a model whose
// class the project does not show (`self.model.g_a.batch_loss(...)`);
// NoNode where there is none.
func unknownModelMethod(m *analyzer.Model, value analyzer.NodeID) analyzer.NodeID {
	f := m.File
	v := f.Unparen(value)
	for depth := 0; depth < 8; depth++ {
		if f.Kind(v) == analyzer.KindIdentifier {
			if v = f.Unparen(m.AssignedValue(v)); v == analyzer.NoNode {
				return analyzer.NoNode
			}
			continue
		}
		if f.Kind(v) != analyzer.KindCall {
			return analyzer.NoNode
		}
		fn := f.Unparen(f.Field(v, analyzer.FieldFunction))
		if f.Kind(fn) != analyzer.KindAttribute {
			return analyzer.NoNode
		}
		switch name := f.Text(f.Field(fn, analyzer.FieldAttribute)); {
		case analyzer.TensorMethod(name):
			v = f.Unparen(f.Field(fn, analyzer.FieldObject))
			continue
		case name == "forward" || name == "__call__":
			return analyzer.NoNode
		}
		if recv := f.Unparen(f.Field(fn, analyzer.FieldObject)); m.ClassifyCallee(recv) != analyzer.CallableModel {
			return analyzer.NoNode
		}
		if ref, def := m.InstanceMethod(fn); ref != "" || def != analyzer.NoNode {
			return analyzer.NoNode
		}
		return v
	}
	return analyzer.NoNode
}

// boundDictEntry is dictEntry through the names value is computed from
// (`c = out["control"]; torch.abs(c.sum(0))`) and the first argument of
// torch's functions.
func boundDictEntry(m *analyzer.Model, value analyzer.NodeID) analyzer.NodeID {
	f := m.File
	for depth := 0; depth < 8; depth++ {
		if e := dictEntry(f, value); e != analyzer.NoNode {
			return e
		}
		value = f.Unparen(value)
		for f.Kind(value) == analyzer.KindCall || f.Kind(value) == analyzer.KindAttribute {
			if f.Kind(value) == analyzer.KindAttribute {
				value = f.Unparen(f.Field(value, analyzer.FieldObject))
				continue
			}
			fn := f.Unparen(f.Field(value, analyzer.FieldFunction))
			if q := m.CallName(value); strings.HasPrefix(q, "torch.") && len(m.Args(value)) > 0 {
				value = f.Unparen(m.Args(value)[0]) // torch.abs(x)
				continue
			}
			if f.Kind(fn) != analyzer.KindAttribute {
				return analyzer.NoNode
			}
			value = f.Unparen(f.Field(fn, analyzer.FieldObject)) // x.sum(0)
		}
		if f.Kind(value) != analyzer.KindIdentifier {
			return analyzer.NoNode
		}
		b := m.Resolve(value)
		if b == nil || b.Value == analyzer.NoNode {
			return analyzer.NoNode
		}
		value = b.Value
	}
	return analyzer.NoNode
}

// dictEntry returns the entry of a dict, by a string key, that value is
// or is computed from by methods (`out["reward"].mean()`, either arm of
// a conditional); NoNode where there is none.
func dictEntry(f *analyzer.File, value analyzer.NodeID) analyzer.NodeID {
	for depth := 0; depth < 8; depth++ {
		value = f.Unparen(value)
		switch f.Kind(value) {
		case analyzer.KindCall:
			fn := f.Unparen(f.Field(value, analyzer.FieldFunction))
			if f.Kind(fn) != analyzer.KindAttribute {
				return analyzer.NoNode
			}
			value = f.Field(fn, analyzer.FieldObject)
		case analyzer.KindAttribute:
			value = f.Field(value, analyzer.FieldObject)
		case analyzer.KindConditionalExpression:
			for _, arm := range f.ChildList(value) {
				if e := dictEntry(f, arm); e != analyzer.NoNode {
					return e
				}
			}
			return analyzer.NoNode
		case analyzer.KindSubscript:
			if stringKey(f, value) != "" {
				return value
			}
			return analyzer.NoNode
		default:
			return analyzer.NoNode
		}
	}
	return analyzer.NoNode
}

// entryBackpropagated reports whether the file back-propagates an entry
// written as e is (`out["loss"].backward()`, or through a name bound to
// it): that entry carries a graph.
func entryBackpropagated(m *analyzer.Model, e analyzer.NodeID) bool {
	f := m.File
	text := compactText(f, e)
	found := false
	f.Walk(analyzer.Root, func(id analyzer.NodeID) {
		if found || f.Kind(id) != analyzer.KindCall || !m.IsBackwardCall(id) {
			return
		}
		recv := f.Unparen(m.Receiver(id))
		if recv == analyzer.NoNode && len(m.Args(id)) > 0 {
			recv = f.Unparen(m.Args(id)[0]) // torch.autograd.backward(out["loss"])
		}
		if recv == analyzer.NoNode {
			return
		}
		if compactText(f, recv) == text {
			found = true
			return
		}
		if f.Kind(recv) == analyzer.KindIdentifier {
			if b := m.Resolve(recv); b != nil && b.Value != analyzer.NoNode && compactText(f, b.Value) == text {
				found = true
			}
		}
	})
	return found
}

// onDevice is where a file's activations live, for a message: "on the
// GPU" where the file shows a GPU (CUDA, a device, an accelerator), and
// "in memory" in code that never names one.
func onDevice(f *analyzer.File) string {
	for _, w := range deviceWords {
		for at := 0; ; {
			i := bytes.Index(f.Src[at:], w)
			if i < 0 {
				break
			}
			if !f.InComment(uint32(at + i)) {
				return "on the GPU" // a comment's `.cuda()` shows no GPU
			}
			at += i + len(w)
		}
	}
	return "in memory"
}

// deviceWords are the words of source text that show a GPU.
var deviceWords = [][]byte{[]byte("cuda"), []byte("device"), []byte("gpu"), []byte("GPU"), []byte("accelerat"), []byte("Fabric")}
