package analyzer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Notebook is a Jupyter notebook (nbformat 4) read for linting: its code
// cells joined, in order, into one Python source, so that imports, grad
// mode and accumulators flow across cells as they do when the notebook
// runs top to bottom.
type Notebook struct {
	Raw    []byte
	Cells  []NotebookCell
	Source []byte // the joined code cells, magics masked
	// Indented: a cell is parsed in a block of its own (indentOpener).
	// Fixes are not offered for such a notebook: where a new line goes
	// among cells that IPython dedents is not known.
	Indented bool
	// newline is the line ending of the raw JSON.
	newline string
}

// NotebookCell is one cell of a notebook.
type NotebookCell struct {
	Index int  // 1-based position among all cells
	Code  bool // linted: a Python code cell
	// Start and End are the cell's bytes in Notebook.Source.
	Start, End uint32
	// lines are the cell's source lines as stored (each with its "\n"
	// but the last), and rawLines the line of the raw file each is on.
	lines    []string
	rawLines []int
	// valStart and valEnd span the JSON value of "source" in Raw.
	valStart, valEnd int
	array            bool
	indented         bool // parsed in a block of its own (indentOpener)
}

// cellMarker separates cells in the joined source: a comment line no fix
// touches, so that fixed code can be split back into its cells.
const cellMarker = "# torchlint: cell boundary\n"

// indentOpener opens a block for a cell whose code IPython dedents before
// running it (its first line is indented, leading_indent): the cell's
// lines become the block's, at the offsets, lines and columns they have.
// A with statement's body runs once, as the cell does: what the cell
// switches or initialises is done, not done on some paths only.
const indentOpener = "with __torchlint_cell__:  # indented cell\n"

// indentedCell reports whether a cell's code is indented as IPython
// runs it and Python alone would reject: its first line that is not blank
// starts with whitespace, which IPython then removes from every line that
// starts with it (leading_indent), and its first line of code starts with
// that whitespace and nothing more.
func indentedCell(text string) bool {
	prefix := ""
	first := true
	for line := range strings.Lines(text) {
		body := strings.TrimLeft(line, " \t")
		if strings.TrimSpace(body) == "" {
			continue
		}
		if first {
			prefix, first = line[:len(line)-len(body)], false
		}
		if !strings.HasPrefix(body, "#") {
			return prefix != "" && len(line)-len(body) == len(prefix) && strings.HasPrefix(line, prefix)
		}
	}
	return false
}

// SameCell reports whether offsets a <= b of a file lie in one cell of
// a notebook (always, in a Python file): no cell boundary between them.
// Cells run one at a time, so a cell's `return` or `raise` at top level
// stops none of the cells after it.
func (f *File) SameCell(a, b uint32) bool {
	return a > b || !bytes.Contains(f.Src[a:b], []byte(cellMarker))
}

// CellDisplays reports whether statement stmt of a notebook is the
// expression whose value IPython displays after its cell runs and keeps
// in its output cache (`Out[n]`, and `_` until three more values come),
// one more value each time the cell runs: the last statement of a cell,
// an expression statement at top level, with no `;` after it. A cell
// whose first line is a magic is left out: `%%time` displays the value,
// `%%capture` and `%%timeit` do not.
func (f *File) CellDisplays(stmt NodeID) bool {
	if !IsNotebook(f.Path) || f.Kind(stmt) != KindExpressionStatement || f.Kind(f.Parent(stmt)) != KindModule {
		return false
	}
	if k := f.Kind(f.FirstChild(stmt)); k == KindAssignment || k == KindAugmentedAssignment {
		return false // `y = f(x)` displays nothing
	}
	end := f.N(stmt).End
	next := f.NextStatement(stmt)
	if next != NoNode && f.SameCell(end, f.N(next).Start) {
		return false // a statement of the same cell comes after it
	}
	rest := f.Src[end:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	if rest = bytes.TrimLeft(rest, " \t"); len(rest) > 0 && rest[0] == ';' {
		return false // `model(x);`: IPython displays nothing
	}
	start := bytes.LastIndex(f.Src[:f.N(stmt).Start], []byte(cellMarker))
	if start < 0 {
		return false // not a cell's code (a notebook's source always starts with a marker)
	}
	for line := range bytes.Lines(f.Src[start+len(cellMarker) : f.N(stmt).Start]) {
		if body := bytes.TrimLeft(line, " \t"); len(bytes.TrimSpace(body)) > 0 {
			return !bytes.HasPrefix(body, []byte("pass#")) && !bytes.HasPrefix(body, []byte("#%"))
		}
	}
	return true
}

// keptCellMagics are the cell magics whose cell is still Python.
var keptCellMagics = map[string]bool{"%%time": true, "%%timeit": true, "%%capture": true}

// ParseNotebook reads a notebook. Anything but nbformat 4 JSON is an
// error that says why.
func ParseNotebook(raw []byte) (*Notebook, error) {
	var head struct {
		NBFormat *int `json:"nbformat"`
		Metadata struct {
			Kernelspec struct {
				Language string `json:"language"`
			} `json:"kernelspec"`
			LanguageInfo struct {
				Name string `json:"name"`
			} `json:"language_info"`
		} `json:"metadata"`
		Cells []struct {
			CellType string          `json:"cell_type"`
			Source   json.RawMessage `json:"source"`
			Metadata struct {
				VSCode struct {
					LanguageID string `json:"languageId"`
				} `json:"vscode"`
			} `json:"metadata"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("not a Jupyter notebook: %w", err)
	}
	switch {
	case head.NBFormat == nil:
		return nil, errors.New("not a Jupyter notebook: no nbformat")
	case *head.NBFormat != 4:
		return nil, fmt.Errorf("nbformat %d is not supported (only nbformat 4); convert it with `jupyter nbconvert --to notebook`", *head.NBFormat)
	}
	spans, err := sourceSpans(raw)
	if err != nil {
		return nil, fmt.Errorf("not a Jupyter notebook: %w", err)
	}
	if len(spans) != len(head.Cells) {
		return nil, errors.New("not a Jupyter notebook: a cell without source")
	}
	nb := &Notebook{Raw: raw, newline: "\n"}
	if bytes.Contains(raw, []byte("\r\n")) {
		nb.newline = "\r\n"
	}
	// A notebook of another kernel (C++'s xeus-cling, R, Julia) holds no
	// Python: none of its cells is linted.
	foreign := false
	for _, l := range []string{head.Metadata.Kernelspec.Language, head.Metadata.LanguageInfo.Name} {
		foreign = foreign || l != "" && !strings.HasPrefix(strings.ToLower(l), "python")
	}
	var src bytes.Buffer
	for i, c := range head.Cells {
		cell := NotebookCell{Index: i + 1, valStart: spans[i][0], valEnd: spans[i][1]}
		lines, array, err := decodeSource(c.Source)
		if err != nil {
			return nil, fmt.Errorf("cell %d: %w", i+1, err)
		}
		cell.lines, cell.array = lines, array
		cell.rawLines = rawLinesOf(raw, spans[i][0], spans[i][1], len(lines), array)
		lang := c.Metadata.VSCode.LanguageID
		cell.Code = c.CellType == "code" && (lang == "" || lang == "python") && !foreign
		text := strings.Join(lines, "")
		if cell.Code {
			first, _, _ := strings.Cut(strings.TrimLeft(text, " \t"), "\n")
			if strings.HasPrefix(first, "%%") && !keptCellMagics[strings.Fields(first)[0]] {
				cell.Code = false // %%bash, %%writefile, ...: not Python
			}
		}
		if cell.Code {
			src.WriteString(cellMarker)
			masked := maskMagics(text)
			if indentedCell(masked) {
				src.WriteString(indentOpener)
				cell.indented, nb.Indented = true, true
			}
			cell.Start = uint32(src.Len())
			src.WriteString(masked)
			cell.End = uint32(src.Len())
			if !strings.HasSuffix(text, "\n") {
				src.WriteByte('\n')
			}
		}
		nb.Cells = append(nb.Cells, cell)
	}
	nb.Source = src.Bytes()
	return nb, nil
}

// decodeSource reads a cell's source, a string or an array of strings.
func decodeSource(v json.RawMessage) (lines []string, array bool, err error) {
	if len(v) > 0 && v[0] == '[' {
		if err := json.Unmarshal(v, &lines); err != nil {
			return nil, true, fmt.Errorf("source: %w", err)
		}
		return lines, true, nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return nil, false, fmt.Errorf("source: %w", err)
	}
	return strings.SplitAfter(s, "\n"), false, nil
}

// sourceSpans returns, for each cell in order, the byte range of its
// "source" value in raw.
func sourceSpans(raw []byte) ([][2]int, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var spans [][2]int
	// Walk the tokens, tracking the key path: the spans wanted are the
	// values of "source" in the objects of the top-level "cells" array.
	type frame struct {
		array bool
		key   string
	}
	var stack []frame
	expectKey := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return spans, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, frame{})
				expectKey = true
				continue
			case '[':
				stack = append(stack, frame{array: true})
			case '}', ']':
				stack = stack[:len(stack)-1]
			}
		case string:
			if expectKey && len(stack) > 0 && !stack[len(stack)-1].array {
				stack[len(stack)-1].key = t
				// A cell's source: cells array at depth 2, cell object at 3.
				if t == "source" && len(stack) == 3 && stack[0].key == "cells" && stack[1].array {
					var v json.RawMessage
					if err := dec.Decode(&v); err != nil {
						return nil, err
					}
					end := int(dec.InputOffset())
					spans = append(spans, [2]int{end - len(v), end})
					expectKey = true
					continue
				}
				expectKey = false
				continue
			}
		}
		expectKey = len(stack) > 0 && !stack[len(stack)-1].array
	}
}

// rawLinesOf finds the raw-file line of each source line: one array
// element per line, or for a single string, its line for all.
func rawLinesOf(raw []byte, start, end, n int, array bool) []int {
	first := bytes.Count(raw[:start], []byte("\n")) + 1
	out := make([]int, n)
	if !array {
		for i := range out {
			out[i] = first
		}
		return out
	}
	// Each element starts at a '"' that follows '[' or ',' (outside
	// strings); count the newlines before it.
	line, i, k := first, start, 0
	inString := false
	for ; i < end && k < n; i++ {
		switch c := raw[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			if !inString {
				out[k] = line
				k++
			}
			inString = !inString
		case c == '\n':
			line++
		}
	}
	for ; k < n; k++ {
		out[k] = line
	}
	return out
}

// helpLine is IPython's help syntax, `obj?`, `obj.attr??` or `?obj`;
// shellAssign a name bound to a shell command or magic, `files = !ls`.
var (
	helpLine    = regexp.MustCompile(`^(\?{1,2}\S.*|[\w.*]+\?{1,2})$`)
	shellAssign = regexp.MustCompile(`^[\w.]+(\s*,\s*[\w.]+)*\s*=\s*[!%]`)
)

// maskMagics turns IPython syntax into comments or `pass`, byte for byte,
// so that no offset moves: line magics (%time), shell escapes (!pip,
// x = !ls), help lines (obj?, ?obj) and a kept cell magic's first line.
func maskMagics(text string) string {
	b := []byte(text)
	continued := false         // the previous line was a magic ending in a backslash
	bound := map[string]bool{} // automagic's names, and whether the notebook binds them
	var py pyState             // where the Python code before the line leaves off
	for start := 0; start < len(b); {
		end := bytes.IndexByte(b[start:], '\n')
		if end < 0 {
			end = len(b)
		} else {
			end += start
		}
		line := b[start:end]
		body := bytes.TrimLeft(line, " \t")
		at := start + len(line) - len(body)
		trimmed := bytes.TrimRight(body, " \t\r")
		// Magics stand at the start of a logical line: not inside
		// brackets, a string or after a backslash of Python code.
		wasContinued := continued
		magic := len(trimmed) > 0 && (continued || py.atLineStart() && (trimmed[0] == '%' || trimmed[0] == '!' ||
			helpLine.Match(trimmed) || shellAssign.Match(trimmed) || automagic(trimmed, text, bound)))
		// A shell command or magic continues on the next line after a
		// backslash (`!pip install \`).
		continued = magic && len(trimmed) > 0 && trimmed[len(trimmed)-1] == '\\'
		if !magic {
			py.scan(line)
		}
		if magic {
			if len(trimmed) >= 5 && !wasContinued {
				// A statement, so that a block holding only it stays valid;
				// a continuation line becomes a comment, whose indentation
				// does not count.
				copy(b[at:], "pass#")
			} else {
				b[at] = '#'
			}
		}
		start = end + 1
	}
	return string(b)
}

// automagicNames are IPython's line magics and shell aliases that a
// notebook commonly calls without their `%` (automagic is on by default):
// `pip install timm`, `ls data/`, `cd ..`.
var automagicNames = map[string]bool{
	"pip": true, "conda": true, "mamba": true, "cd": true, "ls": true, "ll": true, "cat": true, "cp": true,
	"mv": true, "rm": true, "rmdir": true, "mkdir": true, "pwd": true, "env": true, "matplotlib": true,
	"load_ext": true, "reload_ext": true, "run": true, "timeit": true, "time": true, "who": true,
	"whos": true, "history": true, "clear": true, "less": true, "more": true, "man": true,
	"pylab": true, "autoreload": true, "tensorflow_version": true, "config": true, "alias": true,
}

// automagic reports whether line (stripped) calls a line magic without
// its `%`, as IPython's prefilter does: its first word is a magic, and
// what follows is not `=` or `,` (an assignment) nor anything that makes
// the line Python whatever its first word (a call, an index, an
// annotation), and the notebook does not bind the name, which would
// shadow the magic (bound keeps that answer per name).
func automagic(line []byte, text string, bound map[string]bool) bool {
	i := 0
	for i < len(line) && IdentByte(line[i]) {
		i++
	}
	name := string(line[:i])
	if i == 0 || i == len(line) || line[i] != ' ' && line[i] != '\t' || !automagicNames[name] {
		return false
	}
	rest := bytes.TrimLeft(line[i:], " \t")
	if len(rest) == 0 || bytes.IndexByte([]byte("=,([:"), rest[0]) >= 0 ||
		bytes.HasPrefix(rest, []byte("in ")) || bytes.HasPrefix(rest, []byte("if ")) ||
		bytes.HasPrefix(rest, []byte("and ")) || bytes.HasPrefix(rest, []byte("or ")) || bytes.HasPrefix(rest, []byte("is ")) {
		return false
	}
	b, ok := bound[name]
	if !ok {
		b = bindsName(text, name)
		bound[name] = b
	}
	return !b
}

// bindsName reports, roughly, whether Python code in text binds name:
// assigns it, defines it, imports it or loops over it.
func bindsName(text, name string) bool {
	for off := 0; ; {
		i := strings.Index(text[off:], name)
		if i < 0 {
			return false
		}
		i += off
		off = i + len(name)
		if i > 0 && IdentByte(text[i-1]) || off < len(text) && IdentByte(text[off]) {
			continue
		}
		lineStart := strings.LastIndexByte(text[:i], '\n') + 1
		before := strings.TrimSpace(text[lineStart:i])
		after := strings.TrimLeft(text[off:], " \t")
		switch {
		case strings.HasSuffix(before, "def") || strings.HasSuffix(before, "class") || strings.HasSuffix(before, " as") ||
			strings.HasSuffix(before, "for") || strings.HasPrefix(before, "import") || strings.HasPrefix(before, "from"):
			return true
		case strings.HasPrefix(after, "=") && !strings.HasPrefix(after, "=="), strings.HasPrefix(after, ","), strings.HasPrefix(after, ":"):
			return true
		}
	}
}

// pyState follows Python code line by line, roughly, to tell whether the
// next line starts a new logical line: bracket depth, an open
// triple-quoted string, and a trailing backslash.
type pyState struct {
	depth     int
	triple    string // the open triple quote, if any
	backslash bool
}

func (p *pyState) atLineStart() bool { return p.depth <= 0 && p.triple == "" && !p.backslash }

// scan reads one line of Python code.
func (p *pyState) scan(line []byte) {
	p.backslash = false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if p.triple != "" {
			if bytes.HasPrefix(line[i:], []byte(p.triple)) {
				i += 2
				p.triple = ""
			} else if c == '\\' {
				i++
			}
			continue
		}
		switch c {
		case '#':
			return
		case '(', '[', '{':
			p.depth++
		case ')', ']', '}':
			p.depth--
		case '\'', '"':
			q := string([]byte{c, c, c})
			if bytes.HasPrefix(line[i:], []byte(q)) {
				p.triple = q
				i += 2
				continue
			}
			// A one-line string: skip to its closing quote.
			for i++; i < len(line) && line[i] != c; i++ {
				if line[i] == '\\' {
					i++
				}
			}
		case '\\':
			if i == len(bytes.TrimRight(line, " \t\r"))-1 {
				p.backslash = true
			}
		}
	}
}

// Locate maps a byte offset of the joined source to its cell (index among
// all cells), its 1-based line and code-point column within the cell,
// and the line of the raw notebook file that holds it. cell is 0 for an
// offset outside every code cell (a cell boundary).
func (nb *Notebook) Locate(off uint32) (cell, line, col, rawLine int) {
	for i := range nb.Cells {
		c := &nb.Cells[i]
		if !c.Code || off < c.Start || off > c.End {
			continue
		}
		text := nb.Source[c.Start:off]
		line = bytes.Count(text, []byte("\n")) + 1
		lastNL := bytes.LastIndexByte(text, '\n')
		col = len([]rune(string(text[lastNL+1:]))) + 1
		rawLine = 1
		if line-1 < len(c.rawLines) {
			rawLine = c.rawLines[line-1]
		} else if len(c.rawLines) > 0 {
			rawLine = c.rawLines[len(c.rawLines)-1]
		}
		return c.Index, line, col, rawLine
	}
	return 0, 1, 1, 1
}

// lineRefs are the places a message names a line of the joined source:
// "line 12", "lines 12, 14", or "name.ipynb:12" for a related site.
// A path is read up to a space, an opening parenthesis or a backquote:
// "(train.ipynb:37)" names train.ipynb.
var lineRefs = regexp.MustCompile(`\blines? (\d+(?:, \d+)*)\b|([^\s(\x60]+\.ipynb):(\d+)\b`)

// cellLines rewrites the line numbers a message names, which count lines
// of the joined source, as the notebook shows them: "line 3" for a line
// of the cell the finding is in, "cell 2, line 3" for another cell;
// "lines 3, 4" when all of a list are in the finding's cell.
func (nb *Notebook) cellLines(msg, base string, cell int) string {
	return lineRefs.ReplaceAllStringFunc(msg, func(ref string) string {
		sub := lineRefs.FindStringSubmatch(ref)
		if sub[1] != "" {
			var local, places []string
			for _, digits := range strings.Split(sub[1], ", ") {
				c, l, ok := nb.cellLine(digits)
				if !ok {
					return ref
				}
				if c == cell {
					local = append(local, strconv.Itoa(l))
				}
				places = append(places, fmt.Sprintf("cell %d, line %d", c, l))
			}
			switch {
			case len(local) == len(places) && len(local) == 1:
				return "line " + local[0]
			case len(local) == len(places):
				return "lines " + strings.Join(local, ", ")
			}
			return strings.Join(places, "; ")
		}
		if sub[2] != base {
			return ref // a line of another file
		}
		c, l, ok := nb.cellLine(sub[3])
		if !ok {
			return ref
		}
		return fmt.Sprintf("%s:cell %d:%d", sub[2], c, l)
	})
}

// cellLine locates line digits of the joined source in its cell.
func (nb *Notebook) cellLine(digits string) (cell, line int, ok bool) {
	n, err := strconv.Atoi(digits)
	if err != nil {
		return 0, 0, false
	}
	off, ok := nb.lineOffset(n)
	if !ok {
		return 0, 0, false
	}
	c, l, _, _ := nb.Locate(off)
	return c, l, c != 0
}

// lineOffset returns the offset of the start of 1-based line n of the
// joined source.
func (nb *Notebook) lineOffset(n int) (uint32, bool) {
	if n < 1 {
		return 0, false
	}
	off := 0
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(nb.Source[off:], '\n')
		if j < 0 {
			return 0, false
		}
		off += j + 1
	}
	return uint32(off), true
}

// Rewrite returns the raw notebook with the code cells replaced by their
// text in fixed, a fixed version of Source: only the "source" values of
// changed cells are rewritten, in the style they were written in
// (array or string, the same indentation), so that outputs, metadata,
// key order and the file's last byte stay as they were.
func (nb *Notebook) Rewrite(fixed []byte) ([]byte, error) {
	parts := strings.Split(string(fixed), cellMarker)
	code := 0
	for _, c := range nb.Cells {
		if c.Code {
			code++
		}
	}
	if len(parts) != code+1 || parts[0] != "" {
		return nil, errors.New("a fix moved a cell boundary")
	}
	var out bytes.Buffer
	last := 0
	k := 1
	for i := range nb.Cells {
		c := &nb.Cells[i]
		if !c.Code {
			continue
		}
		text := parts[k]
		if c.indented {
			if !strings.HasPrefix(text, indentOpener) {
				return nil, errors.New("a fix moved a cell boundary")
			}
			text = text[len(indentOpener):]
		}
		k++
		orig := strings.Join(c.lines, "")
		if !strings.HasSuffix(orig, "\n") {
			text = strings.TrimSuffix(text, "\n")
		}
		// Magics were masked; a fix never edits those lines, so put the
		// original lines back where they are unchanged.
		text = unmask(orig, text)
		if text == orig {
			continue
		}
		out.Write(nb.Raw[last:c.valStart])
		out.WriteString(nb.encodeSource(c, text))
		last = c.valEnd
	}
	out.Write(nb.Raw[last:])
	return out.Bytes(), nil
}

// unmask restores the magic lines of orig into text, matching lines by
// their masked form.
func unmask(orig, text string) string {
	masked := maskMagics(orig)
	if masked == orig {
		return text
	}
	origLines := strings.SplitAfter(orig, "\n")
	maskedSet := map[string]string{}
	for i, l := range strings.SplitAfter(masked, "\n") {
		if l != origLines[i] {
			maskedSet[l] = origLines[i]
		}
	}
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if o, ok := maskedSet[l]; ok {
			lines[i] = o
		}
	}
	return strings.Join(lines, "")
}

// encodeSource writes a cell's new source as its old one was written.
func (nb *Notebook) encodeSource(c *NotebookCell, text string) string {
	str := func(s string) string {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s)
		return strings.TrimSuffix(b.String(), "\n")
	}
	if !c.array {
		return str(text)
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	old := string(nb.Raw[c.valStart:c.valEnd])
	if !strings.Contains(old, "\n") || len(lines) == 0 {
		parts := make([]string, len(lines))
		for i, l := range lines {
			parts[i] = str(l)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	// The indentation of the elements and of the closing bracket.
	elemIndent, closeIndent := "  ", ""
	if i := strings.Index(old, "\n"); i >= 0 {
		rest := old[i+1:]
		elemIndent = rest[:len(rest)-len(strings.TrimLeft(rest, " \t"))]
	}
	if i := strings.LastIndex(old, "\n"); i >= 0 {
		tail := old[i+1:]
		closeIndent = tail[:len(tail)-len(strings.TrimLeft(tail, " \t"))]
	}
	var b strings.Builder
	b.WriteString("[" + nb.newline)
	for i, l := range lines {
		b.WriteString(elemIndent + str(l))
		if i < len(lines)-1 {
			b.WriteString(",")
		}
		b.WriteString(nb.newline)
	}
	b.WriteString(closeIndent + "]")
	return b.String()
}
