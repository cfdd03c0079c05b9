package analyzer

import (
	"context"
	"fmt"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

// parseTimeoutMicros bounds the time tree-sitter may spend on one file.
const parseTimeoutMicros = 60_000_000

// parsers is a free list of tree-sitter parsers, one per concurrent parse.
var parsers = make(chan *parser, 64)

// Parse parses src into a File. The tree-sitter tree lives only for the
// duration of the call: the nodes are copied into Go memory in one pass.
func Parse(path string, src []byte) (*File, error) {
	return parseInto(path, src, nil)
}

// parseInto is Parse reusing buf's memory for the nodes.
func parseInto(path string, src []byte, buf []Node) (*File, error) {
	var p *parser
	select {
	case p = <-parsers:
	default:
		p = newParser()
	}
	defer func() {
		select {
		case parsers <- p:
		default:
			p.close()
		}
	}()
	raw, err := p.parseFlat(src, parseTimeoutMicros, unsafe.Slice((*rawNode)(unsafe.Pointer(unsafe.SliceData(buf))), cap(buf))[:0])
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	// Keep raw's capacity so that the array can be reused for a larger file.
	nodes := unsafe.Slice((*Node)(unsafe.Pointer(unsafe.SliceData(raw))), cap(raw))[:len(raw)]
	for i := range nodes {
		n := &nodes[i]
		sym := uint16(n.Kind)
		n.symbol = sym
		switch {
		case sym == tsErrorSymbol:
			n.Kind = KindError
		case n.named == 0:
			n.Kind = KindToken
		case int(sym) < len(symbolKind):
			n.Kind = symbolKind[sym]
		default:
			n.Kind = KindOther
		}
		if int(n.Field) < len(fieldID) {
			n.Field = fieldID[n.Field]
		} else {
			n.Field = FieldOther
		}
	}
	if len(nodes) == 0 {
		nodes = []Node{{Parent: NoNode, FirstChild: NoNode, NextSibling: NoNode, Kind: KindModule, End: uint32(len(src)), named: 1}}
	}
	return &File{Path: path, Src: src, Nodes: nodes}, nil
}

// ParseOnly parses src with tree-sitter through the smacker Go API and
// discards the tree. It is the baseline that BenchmarkParse measures a
// full check against.
func ParseOnly(src []byte) error {
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(python.GetLanguage())
	t, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		return err
	}
	t.Close()
	return nil
}

// SyntaxError is a place where tree-sitter had to recover.
type SyntaxError struct {
	Node    NodeID
	Message string
}

// SyntaxErrors lists the ERROR and missing nodes of f, outermost first;
// an error nested in another is not listed again.
func (f *File) SyntaxErrors() []SyntaxError {
	var out []SyntaxError
	skipUntil := NodeID(-1)
	for i := range f.Nodes {
		id := NodeID(i)
		if id < skipUntil {
			continue
		}
		n := &f.Nodes[i]
		switch {
		case n.Kind == KindError:
			out = append(out, SyntaxError{Node: id, Message: f.describeError(id)})
			skipUntil = f.subtreeEnd(id)
		case n.Missing():
			what := symbolName(f, id)
			out = append(out, SyntaxError{Node: id, Message: fmt.Sprintf("expected %s", what)})
		case n.Kind == KindPrintStatement:
			// The grammar accepts Python 2's statements; Python 3 does not.
			out = append(out, SyntaxError{Node: id, Message: "Missing parentheses in call to 'print' (a Python 2 print statement)"})
			skipUntil = f.subtreeEnd(id)
		case n.Kind == KindExecStatement:
			out = append(out, SyntaxError{Node: id, Message: "Missing parentheses in call to 'exec' (a Python 2 exec statement)"})
			skipUntil = f.subtreeEnd(id)
		}
	}
	return out
}

// symbolName names what a missing node stands for: a token such as ")"
// or ":", or a node type such as identifier.
func symbolName(f *File, id NodeID) string {
	n := &f.Nodes[id]
	if int(n.symbol) < len(symbolNames) {
		if name := symbolNames[n.symbol]; name != "" {
			return fmt.Sprintf("%q", name)
		}
	}
	return "a token"
}

func (f *File) describeError(id NodeID) string {
	n := &f.Nodes[id]
	text := string(f.Src[n.Start:n.End])
	if n.Start == n.End {
		return "unexpected end of input"
	}
	for i, r := range text {
		if r == '\n' || i > 40 {
			text = text[:i] + "…"
			break
		}
	}
	return fmt.Sprintf("unexpected %q", text)
}
