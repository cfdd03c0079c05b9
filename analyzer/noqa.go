package analyzer

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// Suppression comments, as in flake8 and Ruff:
//
//	x = f()  # noqa                 every finding on this line
//	x = f()  # noqa: TL101, TL201   the findings of these codes on this line
//	# torchlint: noqa               every finding in the file
//	# torchlint: noqa: TL301        the findings of these codes in the file
//
// "noqa" and the codes are matched without regard to case; codes are exact
// (no prefixes) and may be separated by commas, spaces or both; text may
// follow the codes and may precede the directive in the same comment
// ("# type: ignore  # noqa: TL101"). Codes of other tools are ignored.
// Only comment tokens are read, never the text of strings.
//
// As in Ruff, a line that cannot end in a comment of its own (one inside
// or opening a multi-line string, or one continued by a backslash) is
// covered by the directive of the line that ends the string or the
// continuation, its noqa row:
//
//	x = torch.load(path) + \
//	    offset  # noqa: TL403         covers the finding on the line above

// noqaCode is one code that a directive names.
type noqaCode struct {
	Code       string // upper case
	Start, End uint32 // the bytes of the code as written
}

// noqaDirective is one suppression comment.
type noqaDirective struct {
	// File is set for `# torchlint: noqa`, which covers the whole file.
	File bool
	// Line is the 1-based line the comment stands on.
	Line int
	// Start and End span the directive, from its "#" to the end of its
	// last code (or of the word noqa when it names none).
	Start, End uint32
	// Codes are the codes named; none means every rule.
	Codes []noqaCode
	// used[i] is set once Codes[i] has suppressed a finding.
	used []bool
}

// covers returns the index of the first mention of code in d.Codes, or
// -1; a code named twice is used only once, so the repeat is reported.
func (d *noqaDirective) covers(code string) int {
	for i, c := range d.Codes {
		if c.Code == code {
			return i
		}
	}
	return -1
}

// parseLineNoqa reads the first `# noqa` directive in comment, the text of
// a comment token that starts at byte offset base of its file. Every "#"
// of the comment may start one.
func parseLineNoqa(comment string, base uint32) (noqaDirective, bool) {
	for i := 0; i < len(comment); i++ {
		if comment[i] != '#' {
			continue
		}
		j := skipBlanks(comment, i+1)
		if !hasPrefixFold(comment, j, "noqa") {
			continue
		}
		if codes, end, ok := parseNoqaCodes(comment, j+len("noqa"), base); ok {
			return noqaDirective{Start: base + uint32(i), End: base + uint32(end), Codes: codes}, true
		}
	}
	return noqaDirective{}, false
}

// parseFileNoqa reads a `# torchlint: noqa` directive at the start of
// comment.
func parseFileNoqa(comment string, base uint32) (noqaDirective, bool) {
	if comment == "" || comment[0] != '#' {
		return noqaDirective{}, false
	}
	j := skipBlanks(comment, 1)
	if !hasPrefixFold(comment, j, "torchlint") {
		return noqaDirective{}, false
	}
	j = skipBlanks(comment, j+len("torchlint"))
	if j >= len(comment) || comment[j] != ':' {
		return noqaDirective{}, false
	}
	j = skipBlanks(comment, j+1)
	if !hasPrefixFold(comment, j, "noqa") {
		return noqaDirective{}, false
	}
	codes, end, ok := parseNoqaCodes(comment, j+len("noqa"), base)
	if !ok {
		return noqaDirective{}, false
	}
	return noqaDirective{File: true, Start: base, End: base + uint32(end), Codes: codes}, true
}

// parseNoqaCodes reads what follows the word noqa at s[i:]: nothing (a
// directive for every rule), or a colon and a list of codes, each letters
// then digits. It returns the codes and the offset just past the
// directive. "noqa" glued to a word ("noqanything") is no directive, and
// neither is a colon followed by no code (Ruff ignores it too, with a
// warning).
func parseNoqaCodes(s string, i int, base uint32) (codes []noqaCode, end int, ok bool) {
	if i < len(s) && isAlnum(s[i]) {
		return nil, 0, false
	}
	j := skipBlanks(s, i)
	if j >= len(s) || s[j] != ':' {
		return nil, i, true
	}
	j = skipBlanks(s, j+1)
	for {
		k := j
		for k < len(s) && isLetter(s[k]) {
			k++
		}
		m := k
		for m < len(s) && s[m] >= '0' && s[m] <= '9' {
			m++
		}
		if k == j || m == k || (m < len(s) && isAlnum(s[m])) {
			break
		}
		codes = append(codes, noqaCode{Code: strings.ToUpper(s[j:m]), Start: base + uint32(j), End: base + uint32(m)})
		end = m
		for m < len(s) && (s[m] == ' ' || s[m] == '\t' || s[m] == ',') {
			m++
		}
		j = m
	}
	if len(codes) == 0 {
		return nil, 0, false
	}
	return codes, end, true
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func hasPrefixFold(s string, i int, word string) bool {
	return len(s)-i >= len(word) && strings.EqualFold(s[i:i+len(word)], word)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isAlnum(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' || c == '_' }

// mentionsNoqa reports whether b holds "noqa" in any case: the cheap test
// that spares parsing the other comments.
func mentionsNoqa(b []byte) bool {
	for i := 0; i+4 <= len(b); i++ {
		if (b[i] == 'n' || b[i] == 'N') && strings.EqualFold(string(b[i:i+4]), "noqa") {
			return true
		}
	}
	return false
}

// suppressions are the directives of one file.
type suppressions struct {
	all      []*noqaDirective // in file order
	fileAll  bool             // a `# torchlint: noqa` naming no code
	fileWide []*noqaDirective // `# torchlint: noqa: CODES`
	byLine   map[int]*noqaDirective
	rows     noqaRows
}

// noqaRows are the runs of lines that share one noqa row: sorted,
// disjoint, 1-based [first, last] line ranges of more than one line,
// whose directive stands on the last.
type noqaRows [][2]int

// row returns the line whose directive covers a finding on line.
func (r noqaRows) row(line int) int {
	i := sort.Search(len(r), func(i int) bool { return r[i][1] >= line })
	if i < len(r) && r[i][0] <= line {
		return r[i][1]
	}
	return line
}

// findNoqaRows joins the lines of each multi-line string and each
// backslash continuation (outside strings and comments) into runs; runs
// that share a line are one run.
func findNoqaRows(f *File) noqaRows {
	var spans [][2]int
	for i := range f.Nodes {
		if n := &f.Nodes[i]; n.Kind == KindString && bytes.IndexByte(f.Src[n.Start:n.End], '\n') >= 0 {
			spans = append(spans, [2]int{f.LineIndex(n.Start) + 1, f.LineIndex(n.End) + 1})
		}
	}
	src := f.Src
	for off := bytes.IndexByte(src, '\\'); off >= 0; {
		next := off + 1
		if next < len(src) && src[next] == '\r' {
			next++
		}
		if next < len(src) && src[next] == '\n' {
			if !f.InComment(uint32(off)) {
				line := f.LineIndex(uint32(off)) + 1
				spans = append(spans, [2]int{line, line + 1})
			}
		}
		j := bytes.IndexByte(src[off+1:], '\\')
		if j < 0 {
			break
		}
		off += 1 + j
	}
	if len(spans) == 0 {
		return nil
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	rows := noqaRows{spans[0]}
	for _, s := range spans[1:] {
		last := &rows[len(rows)-1]
		if s[0] <= last[1] {
			last[1] = max(last[1], s[1])
		} else {
			rows = append(rows, s)
		}
	}
	return rows
}

// findSuppressions collects the directives of f's comments. A file-level
// directive must stand on a line of its own; it does not also act on its
// line. It returns nil when the file has none.
func findSuppressions(f *File) *suppressions {
	var s *suppressions
	for i := range f.Nodes {
		n := &f.Nodes[i]
		if n.Kind != KindComment || !mentionsNoqa(f.Src[n.Start:n.End]) {
			continue
		}
		text := string(f.Src[n.Start:n.End])
		d, ok := parseFileNoqa(text, n.Start)
		if ok && strings.TrimLeft(string(f.Src[f.LineStart(n.Start):n.Start]), " \t\f") != "" {
			ok = false
		}
		if !ok {
			d, ok = parseLineNoqa(text, n.Start)
		}
		if !ok {
			continue
		}
		if s == nil {
			s = &suppressions{byLine: map[int]*noqaDirective{}, rows: findNoqaRows(f)}
		}
		d.Line = f.Position(d.Start).Line
		d.used = make([]bool, len(d.Codes))
		dp := &d
		s.all = append(s.all, dp)
		switch {
		case d.File && len(d.Codes) == 0:
			s.fileAll = true
		case d.File:
			s.fileWide = append(s.fileWide, dp)
		default:
			if s.byLine[d.Line] == nil {
				s.byLine[d.Line] = dp
			}
		}
	}
	return s
}

// suppress marks the diagnostics that a directive covers and records
// which codes were used: file-level directives first, then the directive
// on the noqa row of the finding's first line. Diagnostics of the rules that
// unsuppressible accepts are left alone.
func (s *suppressions) suppress(diags []Diagnostic, unsuppressible func(*Rule) bool) {
	for i := range diags {
		d := &diags[i]
		if unsuppressible(d.Rule) {
			continue
		}
		if s.fileAll {
			d.Suppressed = true
			continue
		}
		if s.use(s.fileWide, d.Rule.Code) {
			d.Suppressed = true
			continue
		}
		if ld := s.byLine[s.rows.row(d.Pos.Line)]; ld != nil {
			if len(ld.Codes) == 0 || s.use([]*noqaDirective{ld}, d.Rule.Code) {
				d.Suppressed = true
			}
		}
	}
}

// use marks code as used in the first of ds that names it.
func (s *suppressions) use(ds []*noqaDirective, code string) bool {
	for _, d := range ds {
		if i := d.covers(code); i >= 0 {
			d.used[i] = true
			return true
		}
	}
	return false
}

// reportUnused reports, through p, each directive that names codes that
// judged accepts and that suppressed nothing, with a fix that removes
// them.
func (s *suppressions) reportUnused(p *Pass, judged func(code string) bool) {
	for _, d := range s.all {
		var unused, kept []string
		for i, c := range d.Codes {
			text := string(p.File.Src[c.Start:c.End])
			if !d.used[i] && judged(c.Code) {
				unused = append(unused, text)
			} else {
				kept = append(kept, text)
			}
		}
		if len(unused) == 0 {
			continue
		}
		where, directive := "on this line", "`# noqa`"
		if d.File {
			where, directive = "in this file", "`# torchlint: noqa`"
		}
		verb, pronoun := "suppresses", "it"
		if len(unused) > 1 {
			verb, pronoun = "suppress", "them"
		}
		p.ReportRange(d.Start, d.End, fmt.Sprintf("%s names %s, which %s nothing %s; remove %s",
			directive, strings.Join(unused, ", "), verb, where, pronoun))
		if len(kept) > 0 {
			first, last := d.Codes[0], d.Codes[len(d.Codes)-1]
			p.attachFix(&Fix{Message: "Remove unused `noqa` codes", Applicability: Safe,
				Edits: []Edit{Replace(first.Start, last.End, strings.Join(kept, ", "))}})
		} else {
			p.attachFix(&Fix{Message: "Remove unused `noqa` directive", Applicability: Safe,
				Edits: []Edit{deleteDirective(p.File, d.Start, d.End)}})
		}
	}
}

// deleteDirective removes the directive [start, end) as Ruff does: the
// whole line when nothing else is on it; the blanks before it when it
// ends the line; the blanks after it when another comment follows; and
// otherwise everything but a "# " that keeps the following text a comment.
func deleteDirective(f *File, start, end uint32) Edit {
	lineStart := f.LineStart(start)
	lineEnd := end
	for int(lineEnd) < len(f.Src) && f.Src[lineEnd] != '\n' && f.Src[lineEnd] != '\r' {
		lineEnd++
	}
	before := start
	for before > lineStart && (f.Src[before-1] == ' ' || f.Src[before-1] == '\t') {
		before--
	}
	after := end
	for after < lineEnd && (f.Src[after] == ' ' || f.Src[after] == '\t') {
		after++
	}
	switch {
	case before == lineStart && after == lineEnd:
		next := lineEnd
		if int(next) < len(f.Src) && f.Src[next] == '\r' {
			next++
		}
		if int(next) < len(f.Src) && f.Src[next] == '\n' {
			next++
		}
		return Replace(lineStart, next, "")
	case after == lineEnd:
		return Replace(before, lineEnd, "")
	case f.Src[after] == '#':
		return Replace(start, after, "")
	default:
		return Replace(start, after, "# ")
	}
}

// Unsuppressed returns the diagnostics that no noqa comment suppresses:
// those every output shows.
func Unsuppressed(diags []Diagnostic) []Diagnostic {
	out := make([]Diagnostic, 0, len(diags))
	for _, d := range diags {
		if !d.Suppressed {
			out = append(out, d)
		}
	}
	return out
}
