package analyzer

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// CPython rejects some files that tree-sitter's grammar recovers from
// without an ERROR node: an indented line where no block opens, a
// dedent to a column no enclosing block has, a block header with no
// indented body, a bare `name:` line (which tree-sitter joins with the
// next line into an annotated assignment). tokenCheck finds these the
// way CPython's tokenizer does, in one pass over the bytes: logical
// lines (brackets, strings and backslash continuations join physical
// lines), indentation with tabs to multiples of 8 and tabs against
// spaces compared as CPython does, brackets matched and strings closed.

// tokenError is the first error tokenCheck finds.
type tokenError struct {
	Start, End uint32
	Message    string // with CPython's exception name: "IndentationError: unexpected indent"
	// Anywhere: CPython reports it wherever it is in the file, before a
	// syntax error that comes earlier (it tokenizes the whole source for
	// such errors when its parser fails): a character no token may hold,
	// a string left open.
	Anywhere bool
	// Within: a block left unfinished, which tree-sitter's recovery
	// turns into an error over the statements around it (the def that
	// holds a `try` without `except`): it is the error of a tree error
	// whose span holds it.
	Within bool
}

// blockKeywords are the first words of the statements whose header ends
// in a colon, and the name CPython's "expected an indented block after
// ..." message gives each.
var blockKeywords = map[string]string{
	"if": "'if' statement", "elif": "'elif' statement", "else": "'else' statement",
	"for": "'for' statement", "while": "'while' statement", "with": "'with' statement",
	"try": "'try' statement", "except": "'except' statement", "finally": "'finally' statement",
	"def": "function definition", "class": "class definition",
	"match": "'match' statement", "case": "'case' statement",
}

// stringPrefixes are the letters that may stand before a quote.
var stringPrefixes = map[string]bool{
	"r": true, "u": true, "b": true, "f": true, "br": true, "rb": true, "fr": true, "rf": true,
}

// nulMessage is CPython's error for a source with a NUL byte.
const nulMessage = "SyntaxError: source code cannot contain null bytes"

// tabSize is the width CPython's tokenizer gives a tab in indentation.
const tabSize = 8

// tokenCheck scans src as CPython's tokenizer does and returns its first
// error, if any.
func tokenCheck(src []byte) (tokenError, bool) {
	if bytes.IndexByte(src, 0) >= 0 {
		// CPython refuses the whole source before reading a token.
		return tokenError{Message: nulMessage}, true
	}
	t := tokenScanner{src: src, indents: []int{0}, altIndents: []int{0}}
	return t.run()
}

type tokenScanner struct {
	src                 []byte
	indents, altIndents []int
	brackets            []uint32 // offsets of the open brackets
	// header is the offset of the first word of the last logical line
	// when that line is a block header ending in a colon; -1 otherwise.
	header     int
	headerName string
	// tries holds the columns of the `try` statements whose `except` or
	// `finally` has not come yet.
	tries []int
}

func (t *tokenScanner) fail(start, end int, format string, args ...any) (tokenError, bool) {
	if end < start {
		end = start
	}
	return tokenError{Start: uint32(start), End: uint32(end), Message: fmt.Sprintf(format, args...)}, true
}

// lineOf is the 1-based line of offset off.
func (t *tokenScanner) lineOf(off int) int {
	return bytes.Count(t.src[:off], []byte("\n")) + 1
}

func (t *tokenScanner) run() (tokenError, bool) {
	src := t.src
	n := len(src)
	t.header = -1
	i := 0
	for i < n {
		// The start of a logical line: measure its indentation.
		col, alt := 0, 0
		j := i
	indent:
		for ; j < n; j++ {
			switch src[j] {
			case ' ':
				col++
				alt++
			case '\t':
				col = (col/tabSize + 1) * tabSize
				alt++
			case '\f':
				col, alt = 0, 0
			default:
				break indent
			}
		}
		if j == n || src[j] == '#' || src[j] == '\n' || src[j] == '\r' {
			// A blank or comment-only line: no token, no indentation.
			for j < n && src[j] != '\n' && src[j] != '\r' {
				j++
			}
			i = skipNewline(src, j)
			continue
		}
		top := len(t.indents) - 1
		indented := false
		switch {
		case col == t.indents[top]:
			if alt != t.altIndents[top] {
				return t.fail(i, j, "TabError: inconsistent use of tabs and spaces in indentation")
			}
		case col > t.indents[top]:
			if alt <= t.altIndents[top] {
				return t.fail(i, j, "TabError: inconsistent use of tabs and spaces in indentation")
			}
			t.indents = append(t.indents, col)
			t.altIndents = append(t.altIndents, alt)
			indented = true
		default:
			for top > 0 && col < t.indents[top] {
				top--
			}
			t.indents, t.altIndents = t.indents[:top+1], t.altIndents[:top+1]
			if col != t.indents[top] {
				return t.fail(i, j, "IndentationError: unindent does not match any outer indentation level")
			}
			if alt != t.altIndents[top] {
				return t.fail(i, j, "TabError: inconsistent use of tabs and spaces in indentation")
			}
		}
		switch {
		case t.header >= 0 && !indented:
			return t.fail(j, j, "IndentationError: expected an indented block after %s on line %d", t.headerName, t.lineOf(t.header))
		case t.header < 0 && indented:
			return t.fail(j, j, "IndentationError: unexpected indent")
		}
		word := leadingWord(src[j:])
		if k := len(t.tries) - 1; k >= 0 && col <= t.tries[k] {
			if col < t.tries[k] || word != "except" && word != "finally" {
				return t.unfinishedTry(j, j)
			}
			t.tries = t.tries[:k]
		}
		if word == "try" && bytes.HasPrefix(bytes.TrimLeft(src[j+3:], " \t\f"), []byte(":")) {
			t.tries = append(t.tries, col)
		}
		var err tokenError
		var bad bool
		if i, err, bad = t.logicalLine(j); bad {
			return err, true
		}
	}
	if t.header >= 0 {
		return t.fail(n, n, "IndentationError: expected an indented block after %s on line %d", t.headerName, t.lineOf(t.header))
	}
	if len(t.tries) > 0 {
		// At the end of the last line.
		end := len(bytes.TrimRight(src, " \t\f\r\n"))
		return t.unfinishedTry(end, end)
	}
	return tokenError{}, false
}

// unfinishedTry is the error of a `try` whose block ends without an
// `except` or a `finally`.
func (t *tokenScanner) unfinishedTry(start, end int) (tokenError, bool) {
	err, _ := t.fail(start, end, "SyntaxError: expected 'except' or 'finally' block")
	err.Within = true
	return err, true
}

// leadingWord returns the name b starts with, or "".
func leadingWord(b []byte) string {
	k := 0
	for k < len(b) && IdentByte(b[k]) {
		k++
	}
	return string(b[:k])
}

// logicalLine scans the tokens of the logical line that starts at i and
// returns the offset of the next one. It records whether the line is a
// block header.
func (t *tokenScanner) logicalLine(i int) (int, tokenError, bool) {
	src := t.src
	n := len(src)
	start := i
	first := ""     // the first token when it is a word; "(" for any other
	lastColon := -1 // offset of the last token when it is a colon
	// lastEq is the offset of the last token when it is an `=` (of an
	// assignment, an augmented one or a comparison) outside brackets;
	// eqEnd, where the line's NEWLINE token then starts (at its comment).
	lastEq, eqEnd := -1, -1
	t.header = -1
	for i < n {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			i++
			continue
		case c == '#':
			if lastEq >= 0 && eqEnd < 0 {
				eqEnd = i
			}
			for i < n && src[i] != '\n' && src[i] != '\r' {
				i++
			}
			continue
		case c == '\n' || c == '\r':
			next := skipNewline(src, i)
			if len(t.brackets) > 0 {
				i = next
				continue
			}
			if err, failed := t.danglingEq(lastEq, eqEnd, i); failed {
				return next, err, true
			}
			if err, failed := t.openHeader(first, start, lastColon); failed {
				return next, err, true
			}
			if (first == "def" || first == "class") && lastColon < 0 {
				// A `def` or `class` alone on its line: CPython stops at
				// the end of the line.
				w := src[start:i]
				if h := bytes.IndexByte(w, '#'); h >= 0 {
					w = w[:h]
				}
				if string(bytes.Trim(w, " \t\f")) == first {
					err, _ := t.fail(i, i, "SyntaxError: invalid syntax")
					return next, err, true
				}
			}
			return next, tokenError{}, false
		case c == '\\':
			if i+1 < n && (src[i+1] == '\n' || src[i+1] == '\r') {
				i = skipNewline(src, i+1)
				if i == n {
					err, _ := t.fail(n, n, "SyntaxError: unexpected EOF while parsing")
					return n, err, true
				}
				continue
			}
			err, _ := t.fail(i, i+1, "SyntaxError: unexpected character after line continuation character")
			return n, err, true
		case c == '"' || c == '\'':
			if first == "" {
				first = "("
			}
			end, err, bad := t.stringAt(i, i)
			if bad {
				return n, err, true
			}
			i = end
			lastColon, lastEq = -1, -1
			continue
		case c == '?':
			// No token holds it (IPython's help syntax is masked in
			// notebooks before this): `Model(???)` left to fill in.
			err, _ := t.fail(i, i+1, "SyntaxError: invalid syntax")
			return n, err, true
		case c == '(' || c == '[' || c == '{':
			t.brackets = append(t.brackets, uint32(i))
		case c == ')' || c == ']' || c == '}':
			if len(t.brackets) == 0 {
				err, _ := t.fail(i, i+1, "SyntaxError: unmatched '%c'", c)
				return n, err, true
			}
			open := src[t.brackets[len(t.brackets)-1]]
			if open != opening(c) {
				err, _ := t.fail(i, i+1, "SyntaxError: closing parenthesis '%c' does not match opening parenthesis '%c'", c, open)
				return n, err, true
			}
			t.brackets = t.brackets[:len(t.brackets)-1]
		case IdentStart(c):
			j, err, bad := t.identEnd(i)
			if bad {
				return n, err, true
			}
			if first == "" {
				first = string(src[i:j])
			}
			if j < n && (src[j] == '"' || src[j] == '\'') && j-i <= 2 && stringPrefixes[string(bytes.ToLower(src[i:j]))] {
				end, err, bad := t.stringAt(i, j)
				if bad {
					return n, err, true
				}
				i = end
			} else {
				i = j
			}
			lastColon, lastEq = -1, -1
			continue
		}
		if first == "" {
			first = "("
		}
		if c == ':' && len(t.brackets) == 0 {
			lastColon = i
		} else {
			lastColon = -1
		}
		if c == '=' && len(t.brackets) == 0 {
			lastEq = i
		} else {
			lastEq = -1
		}
		i++
	}
	if len(t.brackets) > 0 {
		open := int(t.brackets[0])
		err, _ := t.fail(open, open+1, "SyntaxError: '%c' was never closed", src[open])
		return n, err, true
	}
	if err, failed := t.danglingEq(lastEq, eqEnd, n); failed {
		return n, err, true
	}
	// A header on the last line, with no body at all.
	if err, failed := t.openHeader(first, start, lastColon); failed {
		return n, err, true
	}
	return n, tokenError{}, false
}

// danglingEq fails a logical line whose last token is an `=` (lastEq,
// none when negative): `value =` with nothing after it, an exercise's
// blank to fill in. CPython stops where the line's NEWLINE starts: at its
// comment (eqEnd, none when negative), else at end.
func (t *tokenScanner) danglingEq(lastEq, eqEnd, end int) (tokenError, bool) {
	if lastEq < 0 {
		return tokenError{}, false
	}
	if eqEnd >= 0 {
		end = eqEnd
	}
	return t.fail(end, end, "SyntaxError: invalid syntax")
}

// openHeader records a logical line starting at start with keyword first
// that ends in a colon at lastColon (none when negative) as the header of
// a block, or fails where the colon ends no block statement.
func (t *tokenScanner) openHeader(first string, start, lastColon int) (tokenError, bool) {
	if lastColon < 0 {
		return tokenError{}, false
	}
	name, ok := blockKeywords[first]
	if first == "async" {
		name, ok = t.asyncHeader(start)
	}
	if !ok {
		err, _ := t.fail(lastColon, lastColon+1, "SyntaxError: invalid syntax")
		return err, true
	}
	t.header, t.headerName = start, name
	return tokenError{}, false
}

// asyncHeader names the statement an `async` header opens.
func (t *tokenScanner) asyncHeader(start int) (string, bool) {
	rest := bytes.TrimLeft(t.src[start+len("async"):], " \t\f")
	for _, kw := range []string{"def", "for", "with"} {
		if bytes.HasPrefix(rest, []byte(kw)) && (len(rest) == len(kw) || !IdentByte(rest[len(kw)])) {
			return blockKeywords[kw], true
		}
	}
	return "", false
}

// stringAt scans the string literal that starts at start, its quote at
// q, and returns the offset just past it.
func (t *tokenScanner) stringAt(start, q int) (int, tokenError, bool) {
	src := t.src
	n := len(src)
	quote := src[q]
	triple := q+2 < n && src[q+1] == quote && src[q+2] == quote
	i := q + 1
	if triple {
		i = q + 3
	}
	fstring := bytes.IndexByte(bytes.ToLower(src[start:q]), 'f') >= 0
	for i < n {
		c := src[i]
		if fstring && c == '{' {
			end, err, bad := t.braceAt(i)
			if bad {
				return n, err, true
			}
			i = end
			continue
		}
		switch {
		case c == '\\':
			i += 2
			if i-1 < n && src[i-1] == '\r' && i < n && src[i] == '\n' {
				i++
			}
			continue
		case c == quote && !triple:
			return i + 1, tokenError{}, false
		case c == quote && i+2 < n && src[i+1] == quote && src[i+2] == quote:
			return i + 3, tokenError{}, false
		case (c == '\n' || c == '\r') && !triple:
			err, _ := t.fail(start, i, "SyntaxError: unterminated string literal (detected at line %d)", t.lineOf(start))
			err.Anywhere = true
			return n, err, true
		}
		i++
	}
	if triple {
		last := n
		if n > 0 && src[n-1] == '\n' {
			last-- // the last line is the one the newline ends
		}
		err, _ := t.fail(start, n, "SyntaxError: unterminated triple-quoted string literal (detected at line %d)", t.lineOf(last))
		err.Anywhere = true
		return n, err, true
	}
	err, _ := t.fail(start, n, "SyntaxError: unterminated string literal (detected at line %d)", t.lineOf(start))
	err.Anywhere = true
	return n, err, true
}

// braceAt scans, at a brace of an f-string's text or format spec, `{{`
// (a literal brace) or a replacement field: an expression, as Python
// 3.12 reads it (PEP 701), with strings of any quote and line breaks
// inside. It returns the offset just past it.
func (t *tokenScanner) braceAt(i int) (int, tokenError, bool) {
	if i+1 < len(t.src) && t.src[i+1] == '{' {
		return i + 2, tokenError{}, false
	}
	return t.replacementField(i)
}

// replacementField scans the replacement field of an f-string that
// opens at the brace at open, and returns the offset just past its
// closing brace: the expression, with its brackets, strings and line
// breaks, then a conversion and a format spec whose own fields nest.
func (t *tokenScanner) replacementField(open int) (int, tokenError, bool) {
	src := t.src
	n := len(src)
	depth := 0
	spec := false
	for i := open + 1; i < n; {
		c := src[i]
		switch {
		case spec && c == '{':
			end, err, bad := t.braceAt(i)
			if bad {
				return n, err, true
			}
			i = end
			continue
		case spec && c == '}':
			return i + 1, tokenError{}, false
		case spec:
			i++
			continue
		case c == '"' || c == '\'':
			end, err, bad := t.stringAt(i, i)
			if bad {
				return n, err, true
			}
			i = end
			continue
		case IdentStart(c):
			j, err, bad := t.identEnd(i)
			if bad {
				return n, err, true
			}
			if j < n && (src[j] == '"' || src[j] == '\'') && j-i <= 2 && stringPrefixes[string(bytes.ToLower(src[i:j]))] {
				end, err, bad := t.stringAt(i, j)
				if bad {
					return n, err, true
				}
				j = end
			}
			i = j
			continue
		case c == '#':
			// A comment runs to the end of its line (Python 3.12).
			for i < n && src[i] != '\n' {
				i++
			}
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ')' || c == ']') && depth > 0:
			depth--
		case c == '}' && depth > 0:
			depth--
		case c == '}':
			return i + 1, tokenError{}, false
		case c == ':' && depth == 0:
			spec = true // `{x!r:>8}`: the conversion is read as the expression's
		}
		i++
	}
	err, _ := t.fail(open, n, "SyntaxError: f-string: expecting '}'")
	return n, err, true
}

// opening is the bracket that the closing bracket c closes.
func opening(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

// skipNewline returns the offset after the line ending at i (\n, \r\n
// or \r), or i when there is none.
func skipNewline(src []byte, i int) int {
	if i < len(src) && src[i] == '\r' {
		i++
		if i < len(src) && src[i] == '\n' {
			i++
		}
		return i
	}
	if i < len(src) && src[i] == '\n' {
		i++
	}
	return i
}

// identEnd returns the end of the name that starts at i, or fails at a
// character no token may hold (CPython's "invalid character").
func (t *tokenScanner) identEnd(i int) (int, tokenError, bool) {
	src, j := t.src, i
	for j < len(src) && IdentByte(src[j]) {
		if src[j] < 0x80 {
			j++
			continue
		}
		r, size := utf8.DecodeRune(src[j:])
		if (r != 0xFEFF || j != 0) && !identRune(r, j == i) {
			err, _ := t.fail(j, j+size, "%s", badCharacter(r))
			err.Anywhere = true
			return j, err, true
		}
		j += size
	}
	return j, tokenError{}, false
}

// identRune reports whether r, not ASCII, may start (first) or continue
// a Python identifier (PEP 3131), as near as Go's Unicode tables tell.
func identRune(r rune, first bool) bool {
	if r == utf8.RuneError {
		return false
	}
	if unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r) {
		return true
	}
	return !first && (unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc) || unicode.Is(unicode.Other_ID_Continue, r))
}

// badCharacter is CPython's message for a character that no token may
// hold outside strings and comments.
func badCharacter(r rune) string {
	if r == utf8.RuneError || !unicode.IsPrint(r) {
		return fmt.Sprintf("SyntaxError: invalid non-printable character U+%04X", r)
	}
	return fmt.Sprintf("SyntaxError: invalid character '%c' (U+%04X)", r, r)
}

// IdentStart reports whether c can start a Python identifier (any byte
// of a character past ASCII can).
func IdentStart(c byte) bool { return isLetter(c) || c == '_' || c >= 0x80 }

// IdentByte reports whether c can be part of a Python identifier.
func IdentByte(c byte) bool { return isAlnum(c) || c >= 0x80 }

// compileError returns the first statement that CPython's compiler
// refuses where it stands, in a file that parsed: `return`, `yield` or
// `await` outside a function, `break` or `continue` outside a loop's
// body, `nonlocal` at module level, `import *` in a function or class.
func (f *File) compileError() (SyntaxError, bool) {
	for i := range f.Nodes {
		id := NodeID(i)
		var msg string
		switch f.Nodes[i].Kind {
		case KindReturnStatement:
			if !f.inFunction(id, false) {
				msg = "SyntaxError: 'return' outside function"
			}
		case KindYield:
			if !f.inFunction(id, true) {
				msg = "SyntaxError: 'yield' outside function"
			}
		case KindAwait:
			// IPython runs a notebook cell's top-level `await` (autoawait),
			// not one in a class body.
			if !f.inFunction(id, true) && (!IsNotebook(f.Path) || f.inClassBody(id)) {
				msg = "SyntaxError: 'await' outside function"
			}
		case KindNonlocalStatement:
			if !f.inFunction(id, false) {
				msg = "SyntaxError: nonlocal declaration not allowed at module level"
			} else if name, ok := f.unboundNonlocal(id); ok {
				msg = fmt.Sprintf("SyntaxError: no binding for nonlocal '%s' found", name)
			}
		case KindWildcardImport:
			for p := f.Parent(id); p != NoNode; p = f.Parent(p) {
				if k := f.Kind(p); k == KindFunctionDefinition || k == KindClassDefinition {
					msg = "SyntaxError: import * only allowed at module level"
					break
				}
			}
		case KindBreakStatement:
			if !f.inLoop(id) {
				msg = "SyntaxError: 'break' outside loop"
			}
		case KindContinueStatement:
			if !f.inLoop(id) {
				msg = "SyntaxError: 'continue' not properly in loop"
			}
		}
		if msg != "" {
			n := &f.Nodes[i]
			return SyntaxError{Node: id, Start: n.Start, End: n.End, Message: msg}, true
		}
	}
	return SyntaxError{}, false
}

// inClassBody reports whether id lies in a class body, outside any
// function of it.
func (f *File) inClassBody(id NodeID) bool {
	for p := f.Parent(id); p != NoNode; p = f.Parent(p) {
		switch f.Kind(p) {
		case KindFunctionDefinition, KindLambda:
			return false
		case KindClassDefinition:
			return true
		}
	}
	return false
}

// inFunction reports whether id stands in a function's body (or, with
// lambdas, in a lambda) rather than at module level or in a class body.
func (f *File) inFunction(id NodeID, lambdas bool) bool {
	for p := f.Parent(id); p != NoNode; p = f.Parent(p) {
		switch f.Kind(p) {
		case KindFunctionDefinition:
			return true
		case KindLambda:
			if lambdas {
				return true
			}
		case KindClassDefinition:
			return false
		}
	}
	return false
}

// inLoop reports whether id stands in the body of a for or while loop of
// its own function or class (not in the loop's else clause).
func (f *File) inLoop(id NodeID) bool {
	child := id
	for p := f.Parent(id); p != NoNode; child, p = p, f.Parent(p) {
		switch f.Kind(p) {
		case KindForStatement, KindWhileStatement:
			if f.Nodes[child].Field == FieldBody {
				return true
			}
		case KindFunctionDefinition, KindClassDefinition, KindLambda:
			return false
		}
	}
	return false
}

// unboundNonlocal returns a name of the nonlocal statement id that no
// enclosing function binds.
func (f *File) unboundNonlocal(id NodeID) (string, bool) {
	own := NoNode
	for p := f.Parent(id); p != NoNode; p = f.Parent(p) {
		if f.Kind(p) == KindFunctionDefinition {
			own = p
			break
		}
	}
	var missing string
	f.Children(id, func(c NodeID) bool {
		if f.Kind(c) != KindIdentifier {
			return true
		}
		name := f.Text(c)
		for p := f.Parent(own); p != NoNode; p = f.Parent(p) {
			switch f.Kind(p) {
			case KindFunctionDefinition:
				if f.binds(p, name) {
					return true
				}
			case KindClassDefinition:
				// A class body is no enclosing scope for nonlocal; go on out.
			}
		}
		missing = name
		return false
	})
	return missing, missing != ""
}

// binds reports whether the function fn binds name in its own scope: a
// parameter, an assignment or loop target, an import, a nested def or
// class, a with, except or walrus target. Nested scopes are not looked
// into.
func (f *File) binds(fn NodeID, name string) bool {
	found := false
	var visit func(NodeID)
	visit = func(id NodeID) {
		for c := f.Nodes[id].FirstChild; c != NoNode && !found; c = f.Nodes[c].NextSibling {
			n := &f.Nodes[c]
			if n.Kind == KindIdentifier && f.TextIs(c, name) && f.isBinding(c, fn) {
				found = true
				return
			}
			switch n.Kind {
			case KindFunctionDefinition, KindClassDefinition:
				if nm := f.Field(c, FieldName); nm != NoNode && f.TextIs(nm, name) {
					found = true
					return
				}
				continue
			case KindLambda:
				continue
			}
			visit(c)
		}
	}
	visit(fn)
	return found
}

// isBinding reports whether the identifier id, inside function fn, is a
// name the statement around it binds.
func (f *File) isBinding(id, fn NodeID) bool {
	child := id
	for p := f.Parent(id); p != NoNode && p != fn; child, p = p, f.Parent(p) {
		field := f.Nodes[child].Field
		switch f.Kind(p) {
		case KindAssignment, KindAugmentedAssignment, KindForStatement, KindForInClause:
			return field == FieldLeft
		case KindNamedExpression:
			return field == FieldName
		case KindParameters, KindAsPatternTarget, KindImportStatement, KindImportFromStatement, KindAliasedImport:
			return true
		case KindFunctionDefinition, KindClassDefinition, KindLambda, KindCall, KindAttribute, KindSubscript:
			return false
		}
	}
	return false
}
