package analyzer

import (
	"fmt"
	"sort"
	"unicode/utf8"
	"unsafe"
)

// NodeID indexes File.Nodes; nodes are stored in pre-order, so a node's
// descendants follow it and end before its next sibling.
type NodeID int32

// NoNode is the absent node.
const NoNode NodeID = -1

// Node is one syntax node, copied out of tree-sitter. It has the memory
// layout of rawNode so that a parsed tree is copied in one block.
type Node struct {
	Start, End                      uint32 // byte offsets, end exclusive
	Parent, FirstChild, NextSibling NodeID
	Kind                            Kind
	Field                           Field // the field this node fills in its parent
	named, missing                  uint8
	symbol                          uint16 // tree-sitter's own symbol, for messages
}

// Missing reports whether tree-sitter inserted the node to recover from a
// syntax error.
func (n *Node) Missing() bool { return n.missing != 0 }

var _ [unsafe.Sizeof(Node{}) - unsafe.Sizeof(rawNode{})]struct{}
var _ [unsafe.Sizeof(rawNode{}) - unsafe.Sizeof(Node{})]struct{}

// File is one parsed source file: its bytes, its nodes and a line table.
type File struct {
	Path  string // as named on the command line or found by the walk
	Src   []byte
	Nodes []Node
	lines []uint32 // byte offset at which each line starts
	// comments are the byte spans of the comments, in source order;
	// built on the first InComment.
	comments [][2]uint32
	names    map[string]string // Name's copies
}

// Root is the module node.
const Root NodeID = 0

// N returns the node with the given ID.
func (f *File) N(id NodeID) *Node { return &f.Nodes[id] }

// Kind returns the kind of id, or KindOther for NoNode.
func (f *File) Kind(id NodeID) Kind {
	if id == NoNode {
		return KindOther
	}
	return f.Nodes[id].Kind
}

// Text returns the source text of a node.
func (f *File) Text(id NodeID) string {
	if id == NoNode {
		return ""
	}
	n := &f.Nodes[id]
	return string(f.Src[n.Start:n.End])
}

// Name returns the source text of id, as Text does, from one copy per
// distinct short text of the file: for names, which repeat.
func (f *File) Name(id NodeID) string {
	if id == NoNode {
		return ""
	}
	n := &f.Nodes[id]
	b := f.Src[n.Start:n.End]
	if len(b) > 64 {
		return string(b)
	}
	if s, ok := f.names[string(b)]; ok {
		return s
	}
	if f.names == nil {
		f.names = make(map[string]string)
	}
	s := string(b)
	f.names[s] = s
	return s
}

// view returns the source text of id as a string that shares f.Src's
// memory, without allocating: for lookups only, never to be kept (it
// would keep the whole source alive). f.Src is never written to.
func (f *File) view(id NodeID) string {
	if id == NoNode {
		return ""
	}
	n := &f.Nodes[id]
	if n.End <= n.Start {
		return ""
	}
	return unsafe.String(&f.Src[n.Start], int(n.End-n.Start))
}

// TextIs reports whether the source text of id equals s, without allocating.
func (f *File) TextIs(id NodeID, s string) bool {
	if id == NoNode {
		return false
	}
	n := &f.Nodes[id]
	return int(n.End-n.Start) == len(s) && string(f.Src[n.Start:n.End]) == s
}

// Parent returns the parent of id.
func (f *File) Parent(id NodeID) NodeID { return f.Nodes[id].Parent }

// Field returns the first child of id that fills field.
func (f *File) Field(id NodeID, field Field) NodeID {
	if id == NoNode {
		return NoNode
	}
	for c := f.Nodes[id].FirstChild; c != NoNode; c = f.Nodes[c].NextSibling {
		if f.Nodes[c].Field == field {
			return c
		}
	}
	return NoNode
}

// Children calls fn for each child of id that is a named node other than a
// comment or a line continuation, in order, until fn returns false.
func (f *File) Children(id NodeID, fn func(NodeID) bool) {
	if id == NoNode {
		return
	}
	for c := f.Nodes[id].FirstChild; c != NoNode; c = f.Nodes[c].NextSibling {
		n := &f.Nodes[c]
		if n.Kind == KindComment || n.Kind == KindToken || n.Kind == KindLineContinuation {
			continue
		}
		if !fn(c) {
			return
		}
	}
}

// NextStatement returns the sibling after stmt that is not a comment or
// a token (the next statement of its block), or NoNode.
func (f *File) NextStatement(stmt NodeID) NodeID {
	next := f.Nodes[stmt].NextSibling
	for next != NoNode && (f.Nodes[next].Kind == KindComment || f.Nodes[next].Kind == KindToken) {
		next = f.Nodes[next].NextSibling
	}
	return next
}

// ChildList returns the named, non-comment children of id.
func (f *File) ChildList(id NodeID) []NodeID {
	var out []NodeID
	f.Children(id, func(c NodeID) bool { out = append(out, c); return true })
	return out
}

// FirstChild returns the first named, non-comment child of id.
func (f *File) FirstChild(id NodeID) NodeID {
	r := NoNode
	f.Children(id, func(c NodeID) bool { r = c; return false })
	return r
}

// Contains reports whether inner lies within outer (or is outer).
func (f *File) Contains(outer, inner NodeID) bool {
	if outer == NoNode || inner == NoNode {
		return false
	}
	if inner < outer {
		return false
	}
	return f.Nodes[inner].Start >= f.Nodes[outer].Start && f.Nodes[inner].End <= f.Nodes[outer].End && f.isDescendant(outer, inner)
}

func (f *File) isDescendant(outer, inner NodeID) bool {
	for n := inner; n != NoNode; n = f.Nodes[n].Parent {
		if n == outer {
			return true
		}
		if n < outer {
			return false
		}
	}
	return false
}

// Walk calls fn for id and each of its descendants in pre-order. Because
// nodes are stored in pre-order this is a loop, not a recursion.
func (f *File) Walk(id NodeID, fn func(NodeID)) {
	if id == NoNode {
		return
	}
	end := f.subtreeEnd(id)
	for i := id; i < end; i++ {
		fn(i)
	}
}

// subtreeEnd returns the ID just past the last descendant of id.
func (f *File) subtreeEnd(id NodeID) NodeID {
	for n := id; n != NoNode; n = f.Nodes[n].Parent {
		if s := f.Nodes[n].NextSibling; s != NoNode {
			return s
		}
	}
	return NodeID(len(f.Nodes))
}

// Unparen strips parentheses around an expression.
func (f *File) Unparen(id NodeID) NodeID {
	for id != NoNode && f.Nodes[id].Kind == KindParenthesizedExpression {
		id = f.FirstChild(id)
	}
	return id
}

// Position is a 1-based line and column; the column counts Unicode code
// points, as Ruff and most editors do.
type Position struct{ Line, Column int }

func (f *File) buildLines() {
	f.lines = f.lines[:0]
	f.lines = append(f.lines, 0)
	src := f.Src
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			f.lines = append(f.lines, uint32(i+1))
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue
			}
			f.lines = append(f.lines, uint32(i+1))
		}
	}
}

// InComment reports whether byte offset off lies in a comment.
func (f *File) InComment(off uint32) bool {
	if f.comments == nil {
		f.comments = [][2]uint32{}
		for i := range f.Nodes {
			if n := &f.Nodes[i]; n.Kind == KindComment {
				f.comments = append(f.comments, [2]uint32{n.Start, n.End})
			}
		}
	}
	k := sort.Search(len(f.comments), func(i int) bool { return f.comments[i][1] > off })
	return k < len(f.comments) && f.comments[k][0] <= off
}

// LineIndex returns the 0-based line that holds byte offset off.
func (f *File) LineIndex(off uint32) int {
	if f.lines == nil {
		f.buildLines()
	}
	lo, hi := 0, len(f.lines)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if f.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// Position converts a byte offset into a line and column.
func (f *File) Position(off uint32) Position {
	line := f.LineIndex(off)
	start := f.lines[line]
	if int(off) > len(f.Src) {
		off = uint32(len(f.Src))
	}
	return Position{Line: line + 1, Column: utf8.RuneCount(f.Src[start:off]) + 1}
}

// Line returns the text of 1-based line n without its line ending.
func (f *File) Line(n int) string {
	if f.lines == nil {
		f.buildLines()
	}
	if n < 1 || n > len(f.lines) {
		return ""
	}
	start := f.lines[n-1]
	end := uint32(len(f.Src))
	if n < len(f.lines) {
		end = f.lines[n]
	}
	for end > start && (f.Src[end-1] == '\n' || f.Src[end-1] == '\r') {
		end--
	}
	return string(f.Src[start:end])
}

// LineStart returns the offset where the line holding off begins.
func (f *File) LineStart(off uint32) uint32 {
	i := f.LineIndex(off) // builds the line table
	return f.lines[i]
}

// Indent returns the leading spaces and tabs of the line holding off.
func (f *File) Indent(off uint32) string {
	start := f.LineStart(off)
	end := start
	for int(end) < len(f.Src) && (f.Src[end] == ' ' || f.Src[end] == '\t') {
		end++
	}
	return string(f.Src[start:end])
}

// Newline returns the file's line ending: that of its first line, or
// "\n" for a file of one line.
func (f *File) Newline() string {
	for i, c := range f.Src {
		switch c {
		case '\n':
			return "\n"
		case '\r':
			if i+1 < len(f.Src) && f.Src[i+1] == '\n' {
				return "\r\n"
			}
			return "\r"
		}
	}
	return "\n"
}

func (f *File) String() string { return fmt.Sprintf("File(%s, %d nodes)", f.Path, len(f.Nodes)) }
