package rules

import (
	"strings"
	"unicode/utf8"

	"github.com/torchlint/torchlint/analyzer"
)

// code names expression id in a message: its source text in backquotes
// when it fits in n characters; a call too long for that by its function
// (`evaluate(...)`, `.item()`); otherwise words, for which the caller
// passes what the expression is ("the loss"). A message never cuts an
// expression in the middle: cut code reads as a typo, and pasted, does
// not run.
func code(m *analyzer.Model, id analyzer.NodeID, n int, words string) string {
	f := m.File
	if text := strings.Join(strings.Fields(f.Text(id)), " "); utf8.RuneCountInString(text) <= n {
		return "`" + text + "`"
	}
	if f.Kind(id) != analyzer.KindCall {
		return words
	}
	args := "(...)"
	if len(f.ChildList(f.Field(id, analyzer.FieldArguments))) == 0 {
		args = "()" // no argument, by position or by keyword
	}
	fn := f.Field(id, analyzer.FieldFunction)
	if name := strings.Join(strings.Fields(f.Text(fn)), " "); utf8.RuneCountInString(name)+len(args) <= n {
		return "`" + name + args + "`"
	}
	if f.Kind(fn) == analyzer.KindAttribute {
		return "`." + f.Text(f.Field(fn, analyzer.FieldAttribute)) + args + "`"
	}
	return words
}
