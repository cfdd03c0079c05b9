package analyzer

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
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
	if fixed := universalNewlines(src); fixed != nil {
		// Python reads a lone CR (old Mac line endings) as a newline; the
		// grammar does not. The same source with each lone CR made a LF
		// parses as Python reads it, offsets unchanged; the file keeps
		// its own text.
		f, err := parseOnce(path, fixed, buf, true)
		if err == nil {
			f.Src = src
		}
		return f, err
	}
	return parseOnce(path, src, buf, true)
}

// parseOnce is parseInto; retry allows the one re-parse of a source with
// starred tuple items blanked.
func parseOnce(path string, src []byte, buf []Node, retry bool) (*File, error) {
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
	if !retry {
		return &File{Path: path, Src: src, Nodes: nodes}, nil
	}
	if fixed := undentedComments(src, unstarred(src, nodes), nodes); fixed != nil {
		// The grammar rejects a starred parenthesized, list or string item
		// in a tuple without brackets (`x = 1, *(a)`), which Python
		// accepts, and takes a comment on a line of its own, left of the
		// block it sits in, between a decorator and its definition, for
		// the end of the block. The same source with those stars and
		// comments blanked parses to the same shape, offsets unchanged;
		// the file keeps its own text.
		// A tree with errors still is kept where its first error comes
		// later: the earlier one was the grammar's.
		orig := &File{Path: path, Src: src, Nodes: nodes}
		if g, err := parseOnce(path, fixed, nil, false); err == nil && g.firstError() > orig.firstError() {
			g.Src = src
			return g, nil
		}
		return orig, nil
	}
	return &File{Path: path, Src: src, Nodes: nodes}, nil
}

// firstError returns the offset at which the first error of the tree
// starts (an ERROR node, or a node the parser inserted), or the length
// of the source plus one where there is none.
func (f *File) firstError() int {
	first := len(f.Src) + 1
	for i := range f.Nodes {
		if n := &f.Nodes[i]; (n.Missing() || n.Kind == KindError && !f.grammarGap(NodeID(i))) && int(n.Start) < first {
			first = int(n.Start)
		}
	}
	return first
}

// universalNewlines returns a copy of src with every CR that no LF
// follows made a LF, or nil when there is none.
func universalNewlines(src []byte) []byte {
	var out []byte
	for i := 0; ; i++ {
		j := bytes.IndexByte(src[i:], '\r')
		if j < 0 {
			return out
		}
		if i += j; i+1 < len(src) && src[i+1] == '\n' {
			continue
		}
		if out == nil {
			out = bytes.Clone(src)
		}
		out[i] = '\n'
	}
}

// unstarred returns a copy of src with the stars of the starred items
// inside its ERROR nodes blanked, or nil when there are none: a `*` (not
// `**`) after a comma, or after `=`, `return`, `yield` or `in` with a
// comma later on its line (`*` alone there is an error in Python too).
func unstarred(src []byte, nodes []Node) []byte {
	var out []byte
	for i := range nodes {
		n := &nodes[i]
		if n.Kind != KindError {
			continue
		}
		// From the start of its line: the grammar's recovery may leave
		// the star before the ERROR node (`row = *(pts[i]),`).
		from := uint32(bytes.LastIndexByte(src[:min(int(n.Start), len(src))], '\n') + 1)
		for j := from; j < n.End && int(j) < len(src); j++ {
			if src[j] != '*' || (j+1 < uint32(len(src)) && src[j+1] == '*') || (j > 0 && src[j-1] == '*') {
				continue
			}
			k := int(j) - 1
			for k >= 0 && (src[k] == ' ' || src[k] == '\t') {
				k--
			}
			splat := false
			switch {
			case k < 0:
			case src[k] == ',':
				splat = true
			case src[k] == '=' && (k == 0 || !strings.ContainsRune("=!<>+-*/%&|^@:", rune(src[k-1]))),
				endsWord(src[:k+1], "return"), endsWord(src[:k+1], "yield"), endsWord(src[:k+1], "in"):
				line := src[j:]
				if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
					line = line[:nl]
				}
				// A comma later on its line, or after the parentheses
				// that open there (`*(expr),`, over lines maybe).
				splat = bytes.IndexByte(line, ',') >= 0 || j+1 < uint32(len(src)) && src[j+1] == '(' && commaAfterParens(src[j+1:])
			}
			if !splat {
				continue
			}
			if out == nil {
				out = bytes.Clone(src)
			}
			out[j] = ' '
		}
	}
	return out
}

// undentedComments returns out, or a copy of src where out is nil, with
// the comments blanked that sit on a line of their own left of the next
// line of code, where the tree of src has errors; nil when there are
// none. Python ignores comments wherever they are; the grammar's scanner
// takes such a comment between a decorator and its definition
// (`@property`, then `#` at column 0, then `def`) for a dedent.
func undentedComments(src, out []byte, nodes []Node) []byte {
	if !slices.ContainsFunc(nodes, func(n Node) bool { return n.Kind == KindError || n.Missing() }) {
		return out
	}
	for i := range nodes {
		n := &nodes[i]
		if n.Kind != KindComment || int(n.End) > len(src) {
			continue
		}
		from := bytes.LastIndexByte(src[:n.Start], '\n') + 1
		if len(bytes.TrimLeft(src[from:n.Start], " \t")) > 0 {
			continue // after code on its line
		}
		if next := nextCodeIndent(src[n.End:]); next < 0 || int(n.Start)-from >= next {
			continue
		}
		if out == nil {
			out = bytes.Clone(src)
		}
		for j := n.Start; j < n.End; j++ {
			out[j] = ' '
		}
	}
	return out
}

// nextCodeIndent returns the indentation, in bytes, of the first line
// after the one b starts on that holds more than blanks and a comment;
// -1 when there is none.
func nextCodeIndent(b []byte) int {
	for {
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			return -1
		}
		b = b[nl+1:]
		line := b
		if end := bytes.IndexByte(line, '\n'); end >= 0 {
			line = line[:end]
		}
		code := bytes.TrimLeft(line, " \t")
		if len(bytes.TrimSpace(code)) > 0 && code[0] != '#' {
			return len(line) - len(code)
		}
	}
}

// commaAfterParens reports whether b, which starts with an opening
// parenthesis, closes it (brackets counted, strings and comments not
// followed) and goes on with a comma.
func commaAfterParens(b []byte) bool {
	depth := 0
	for i, c := range b {
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				rest := bytes.TrimLeft(b[i+1:], " \t")
				return len(rest) > 0 && rest[0] == ','
			}
		case '\'', '"', '#':
			return false
		}
	}
	return false
}

// endsWord reports whether b ends with the keyword w, as a whole word.
func endsWord(b []byte, w string) bool {
	if !bytes.HasSuffix(b, []byte(w)) {
		return false
	}
	i := len(b) - len(w) - 1
	return i < 0 || !isNameByte(b[i]) && b[i] != '.'
}

// isNameByte reports whether c can be part of an ASCII identifier.
func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
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

// ParseCopy parses src as a check does, the tree copied into a node
// array reused from file to file, and returns the number of nodes kept.
// It is the floor of a check that the bench compares with ParseOnly: the
// cost of the parse and of the copy the analysis reads, without the
// analysis.
func ParseCopy(src []byte) (int, error) {
	f, err := parseInto("", src, getNodeBuffer())
	if err != nil {
		return 0, err
	}
	n := len(f.Nodes)
	putNodeBuffer(f.Nodes)
	return n, nil
}

// SyntaxError is where CPython would reject the file.
type SyntaxError struct {
	// Node is the tree-sitter node of the error, or NoNode for one found
	// by tokenCheck or the compiler's checks.
	Node       NodeID
	Start, End uint32
	// Message names CPython's exception and says what is wrong, as
	// "IndentationError: unexpected indent".
	Message string
}

// SyntaxErrors returns the first place where CPython 3 would reject f, as
// `python3 -m py_compile` does, or nothing: one error per file, as
// CPython stops at its first. It is the earliest of the first ERROR or
// missing node of tree-sitter's tree (and of Python 2's print and exec
// statements, which the grammar accepts) and the first error of CPython's
// tokenizer and indentation rules (tokenCheck); when the tokens and tree
// are sound, the first statement the compiler refuses where it stands
// (`return` outside a function, `break` outside a loop).
func (f *File) SyntaxErrors() []SyntaxError {
	tree, inTree := f.treeError()
	tok, inTokens := tokenCheck(f.Src)
	switch {
	// A tree error that starts at a line's end and holds nothing but
	// blanks before a token CPython refuses (`M(\n    ???`) is that
	// token's error.
	case inTokens && (!inTree || f.LineIndex(tok.Start) <= f.LineIndex(tree.Start) || tok.Message == nulMessage || tok.Anywhere ||
		tok.Start >= tree.Start && (tok.Start < tree.End && len(bytes.TrimSpace(f.Src[tree.Start:tok.Start])) == 0 || tok.Within && tok.Start <= tree.End)):
		return []SyntaxError{{Node: NoNode, Start: tok.Start, End: tok.End, Message: tok.Message}}
	case inTree:
		return []SyntaxError{tree}
	}
	if se, ok := f.compileError(); ok {
		return []SyntaxError{se}
	}
	return nil
}

// treeError returns the first ERROR or missing node of f, or Python 2
// statement.
func (f *File) treeError() (SyntaxError, bool) {
	for i := 0; i < len(f.Nodes); i++ {
		id := NodeID(i)
		n := &f.Nodes[i]
		if n.Kind == KindError && f.grammarGap(id) {
			i = int(f.subtreeEnd(id)) - 1 // valid Python the grammar refuses: no error, nor any inside it
			continue
		}
		var msg string
		switch {
		case n.Kind == KindError:
			msg = "SyntaxError: invalid syntax (" + f.describeError(id) + ")"
		case n.Missing():
			msg = fmt.Sprintf("SyntaxError: invalid syntax (expected %s)", symbolName(f, id))
		case n.Kind == KindPrintStatement:
			// The grammar accepts Python 2's statements; Python 3 does not.
			msg = "SyntaxError: Missing parentheses in call to 'print' (a Python 2 print statement)"
		case n.Kind == KindExecStatement:
			msg = "SyntaxError: Missing parentheses in call to 'exec' (a Python 2 exec statement)"
		case n.Kind == KindIdentifier && (f.TextIs(id, "async") || f.TextIs(id, "await")) && f.Parent(id) != NoNode && f.Kind(f.Parent(id)) != KindAwait:
			// Names before Python 3.7 (cuda(async=True)), keywords since.
			msg = "SyntaxError: invalid syntax (" + f.Text(id) + " is a keyword)"
		case n.Kind == KindIdentifier && hardKeywords[f.view(id)]:
			// The grammar's error recovery reads a stray keyword as a
			// name: an `else:` with no `if` above it becomes `else: pass`,
			// an annotated assignment.
			msg = "SyntaxError: invalid syntax (" + f.Text(id) + " is a keyword)"
		case n.Kind == KindTuplePattern && f.parameterList(id) != NoNode:
			// Python 2's tuple parameters (`def f(a, (b, c))`).
			if f.Kind(f.parameterList(id)) == KindLambdaParameters {
				msg = "SyntaxError: Lambda expression parameters cannot be parenthesized"
			} else {
				msg = "SyntaxError: Function parameters cannot be parenthesized"
			}
		case n.Kind == KindExpressionList && f.Kind(f.Parent(id)) == KindRaiseStatement && f.FirstChild(f.Parent(id)) == id:
			// Python 2's `raise E, "message"` (and `raise E, v, tb`): the
			// grammar reads a tuple; CPython stops at its first comma.
			first := f.FirstChild(id)
			at := n.Start
			if first != NoNode {
				at = f.Nodes[first].End
				for int(at) < len(f.Src) && f.Src[at] != ',' {
					at++
				}
			}
			return SyntaxError{Node: id, Start: at, End: at + 1, Message: "SyntaxError: invalid syntax (a Python 2 raise statement)"}, true
		case n.Kind == KindExceptClause && python2Except(f, id):
			// Python 2's `except ValueError, e:`, which the grammar accepts.
			first := f.FirstChild(id)
			return SyntaxError{Node: id, Start: f.Nodes[first].Start, End: f.Nodes[first].End,
				Message: "SyntaxError: multiple exception types must be parenthesized"}, true
		case n.Kind == KindInteger && python2Integer(f.Src[n.Start:n.End]):
			msg = "SyntaxError: invalid syntax (a Python 2 integer literal)"
		default:
			continue
		}
		return SyntaxError{Node: id, Start: n.Start, End: n.End, Message: msg}, true
	}
	return SyntaxError{}, false
}

// python2Except reports whether except clause id names two expressions
// before its block (`except ValueError, e:`), as Python 2 wrote the name
// the exception is bound to.
func python2Except(f *File, id NodeID) bool {
	n := 0
	f.Children(id, func(c NodeID) bool {
		if f.Kind(c) == KindBlock {
			return false
		}
		n++
		return true
	})
	return n >= 2
}

// parameterList returns the parameters of a function or lambda that id
// is one of (or the name of one with a default); else NoNode.
func (f *File) parameterList(id NodeID) NodeID {
	p := f.Parent(id)
	if f.Kind(p) == KindDefaultParameter && f.Field(p, FieldName) == id {
		p = f.Parent(p)
	}
	if k := f.Kind(p); k == KindParameters || k == KindLambdaParameters {
		return p
	}
	return NoNode
}

// grammarGap reports whether id, an ERROR node, covers Python that
// CPython accepts and tree-sitter's grammar does not: `or`/`and` after a
// generic annotation (`s: tuple[int, int] or None = None`, which the
// grammar reads only after a plain name). (Starred tuple items are
// unstarred's.)
func (f *File) grammarGap(id NodeID) bool {
	first := f.FirstChild(id)
	switch f.Kind(f.Parent(id)) {
	case KindTypedParameter, KindTypedDefaultParameter, KindParameters, KindAssignment:
	default:
		return false // the shapes the grammar gives these annotations, and no other
	}
	if first != NoNode && f.Kind(first) == KindIdentifier && (f.TextIs(first, "or") || f.TextIs(first, "and")) {
		prev := NoNode // the named node just before id
		f.Children(f.Parent(id), func(c NodeID) bool {
			if c == id {
				return false
			}
			prev = c
			return true
		})
		switch f.Kind(prev) {
		case KindTypedParameter, KindTypedDefaultParameter:
			prev = f.Field(prev, FieldType)
		}
		if f.Kind(prev) != KindType {
			return false
		}
		last := NoNode
		f.Children(prev, func(c NodeID) bool { last = c; return true })
		// The rest a name, a dotted one or a generic one (`or None`, `or
		// Dict[str, int]`), and nothing else the grammar could not read.
		rest := strings.TrimSpace(f.Text(id)[strings.IndexByte(f.Text(id), ' ')+1:])
		return f.Kind(last) == KindGenericType && len(f.ChildList(id)) == 2 && rest != "" &&
			strings.Trim(rest, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.[], ") == ""
	}
	return false
}

// hardKeywords are Python 3's keywords that are never names (async and
// await aside, names before 3.7).
var hardKeywords = map[string]bool{
	"and": true, "as": true, "assert": true, "break": true, "class": true, "continue": true, "def": true,
	"del": true, "elif": true, "else": true, "except": true, "finally": true, "for": true, "from": true,
	"global": true, "if": true, "import": true, "in": true, "is": true, "lambda": true, "nonlocal": true,
	"not": true, "or": true, "pass": true, "raise": true, "return": true, "try": true, "while": true,
	"with": true, "yield": true,
}

// python2Integer reports whether an integer literal is Python 2's only: a
// long (10L) or an octal written with a bare leading zero (0777).
func python2Integer(lit []byte) bool {
	if len(lit) < 2 {
		return false
	}
	if c := lit[len(lit)-1]; c == 'l' || c == 'L' {
		return true
	}
	if c := lit[len(lit)-1]; lit[0] != '0' || c == 'j' || c == 'J' {
		return false // 07j is an imaginary number
	}
	for _, c := range lit[1:] {
		switch {
		case c >= '1' && c <= '9':
			return true
		case c != '0' && c != '_':
			return false
		}
	}
	return false
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
	// A long span is named by its first token, never cut: cut code reads
	// as a typo.
	if i := strings.IndexByte(text, '\n'); i >= 0 || utf8.RuneCountInString(text) > 40 {
		if i >= 0 {
			text = text[:i]
		}
		if utf8.RuneCountInString(text) > 40 {
			if j := strings.IndexFunc(text, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("()[]{},:;=", r) }); j > 0 {
				text = text[:j]
			} else if j == 0 {
				text = text[:1]
			}
		}
	}
	return fmt.Sprintf("unexpected %q", strings.TrimSpace(text))
}
