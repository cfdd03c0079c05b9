package rules

import (
	"github.com/torchlint/torchlint/analyzer"
)

// appendArgument returns an edit that adds text (such as
// `map_location="cpu"`) as the last argument of call, after its last
// argument and before any trailing comma or comment. It returns false for
// a call without arguments or whose argument is a bare generator.
func appendArgument(f *analyzer.File, call analyzer.NodeID, text string) (analyzer.Edit, bool) {
	args := f.Field(call, analyzer.FieldArguments)
	if f.Kind(args) != analyzer.KindArgumentList {
		return analyzer.Edit{}, false
	}
	last := analyzer.NoNode
	f.Children(args, func(c analyzer.NodeID) bool {
		if f.Kind(c) != analyzer.KindComment {
			last = c
		}
		return true
	})
	if last == analyzer.NoNode {
		return analyzer.Edit{}, false
	}
	return analyzer.Insert(f.N(last).End, ", "+text), true
}

// removeArgument returns an edit that deletes argument arg of call with
// the comma that separates it from its neighbour.
func removeArgument(f *analyzer.File, call, arg analyzer.NodeID) (analyzer.Edit, bool) {
	list := f.ChildList(f.Field(call, analyzer.FieldArguments))
	var args []analyzer.NodeID
	for _, c := range list {
		if f.Kind(c) != analyzer.KindComment {
			args = append(args, c)
		}
	}
	for i, a := range args {
		if a != arg {
			continue
		}
		switch {
		case i > 0: // `f(x, volatile=True)`: from the end of x
			return analyzer.Replace(f.N(args[i-1]).End, f.N(a).End, ""), true
		case len(args) > 1: // `f(volatile=True, x)`: up to the next one
			return analyzer.Replace(f.N(a).Start, f.N(args[1]).Start, ""), true
		default:
			return analyzer.Replace(f.N(a).Start, f.N(a).End, ""), true
		}
	}
	return analyzer.Edit{}, false
}

// torchName returns how the module torch can be named at node at: "torch"
// when that name is bound to it there, else "" with an edit that adds
// `import torch` (ok is false when the name torch is bound to something
// else, so no fix can use it).
func torchName(m *analyzer.Model, at analyzer.NodeID) (edit *analyzer.Edit, ok bool) {
	q, bound := m.ImportedAt("torch", at)
	switch {
	case q == "torch":
		return nil, true
	case !bound:
		f := m.File
		off := importOffset(f)
		text := "import torch" + f.Newline()
		if off == uint32(len(f.Src)) && off > 0 && f.Src[off-1] != '\n' && f.Src[off-1] != '\r' {
			text = f.Newline() + text
		}
		e := analyzer.Insert(off, text)
		return &e, true
	}
	return nil, false
}

// importOffset is where a new top-level import goes: before the first
// import that is not `from __future__`, else before the first statement
// after the module docstring and the future imports.
func importOffset(f *analyzer.File) uint32 {
	first, afterPrelude := analyzer.NoNode, analyzer.NoNode
	prelude, statements := true, 0
	f.Children(analyzer.Root, func(c analyzer.NodeID) bool {
		k := f.Kind(c)
		if k == analyzer.KindComment {
			return true
		}
		statements++
		if prelude {
			docstring := statements == 1 && k == analyzer.KindExpressionStatement && f.Kind(f.FirstChild(c)) == analyzer.KindString
			if docstring || k == analyzer.KindFutureImportStatement {
				return true
			}
			prelude = false
			afterPrelude = c
		}
		if k == analyzer.KindImportStatement || k == analyzer.KindImportFromStatement {
			first = c
			return false
		}
		return true
	})
	switch {
	case first != analyzer.NoNode:
		return f.LineStart(f.N(first).Start)
	case afterPrelude != analyzer.NoNode:
		return f.LineStart(f.N(afterPrelude).Start)
	}
	return uint32(len(f.Src))
}
